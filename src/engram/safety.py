"""Injection scan (seed 000): interface placeholder, replaced by the real scanner."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class InjectionMode(StrEnum):
    BLOCK = "block"
    FLAG = "flag"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class ScanResult:
    reasons: tuple[str, ...] = ()
    flagged: bool = False


def enforce(text: str, mode: InjectionMode) -> ScanResult:
    raise NotImplementedError
