"""The rule registry: every check, by code and by name.

A new rule is one module here and one line in `ALL_CHECKS`; its policy table, its selection and
its documentation page (`rules/<CODE>.md`) follow from the class.
"""

from __future__ import annotations

from .api_version import ApiVersionCheck
from .base import Check, Option
from .cache_key import CacheKeyCheck
from .legacy_completions import LegacyCompletionsCheck
from .max_tokens import MaxTokensCheck
from .model_params import ModelParamsCheck
from .removed_sdk_api import RemovedSdkApiCheck
from .retired_model import RetiredModelCheck
from .sampling_params import SamplingParamsCheck
from .sdk_pins import SdkPinsCheck
from .stop_sequences import StopSequencesCheck
from .streaming import StreamingCheck
from .temperature import TemperatureCheck
from .unused_suppression import UnusedSuppressionCheck

ALL_CHECKS: tuple[type[Check], ...] = (
    TemperatureCheck,
    MaxTokensCheck,
    StopSequencesCheck,
    StreamingCheck,
    ApiVersionCheck,
    CacheKeyCheck,
    SdkPinsCheck,
    RetiredModelCheck,
    LegacyCompletionsCheck,
    SamplingParamsCheck,
    ModelParamsCheck,
    RemovedSdkApiCheck,
    UnusedSuppressionCheck,
)

# Codes that are always on and are not checks: CM001 parse-error.
ALWAYS_ON = frozenset({"CM001"})
PSEUDO_RULES = {"CM001": ("parse-error", "a file that can't be read, decoded or parsed")}

CHECKS_BY_CODE = {check.code: check for check in ALL_CHECKS}
CHECKS_BY_NAME = {check.name: check for check in ALL_CHECKS}
KNOWN_CODES = frozenset(CHECKS_BY_CODE) | frozenset(PSEUDO_RULES)

__all__ = [
    "ALL_CHECKS",
    "ALWAYS_ON",
    "CHECKS_BY_CODE",
    "CHECKS_BY_NAME",
    "KNOWN_CODES",
    "PSEUDO_RULES",
    "Check",
    "Option",
]
