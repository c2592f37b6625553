"""jinja2 expressions in decks and templates, always evaluated in jinja2's sandbox.

`render_text` gives a string (`"Score! {{ n }}"`); `render_value` keeps the native
type of a lone expression (`"{{ n }}"` gives the integer), so counts and sizes can
be computed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jinja2 import StrictUndefined, TemplateError
from jinja2.nativetypes import NativeCodeGenerator, native_concat
from jinja2.sandbox import ImmutableSandboxedEnvironment

from .options import Invalid


class _NativeSandbox(ImmutableSandboxedEnvironment):
    code_generator_class = NativeCodeGenerator
    concat = staticmethod(native_concat)


_TEXT = ImmutableSandboxedEnvironment(undefined=StrictUndefined, keep_trailing_newline=True)
_NATIVE = _NativeSandbox(undefined=StrictUndefined)


def is_expression(value: Any) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


@lru_cache(maxsize=4096)
def _compile(source: str, native: bool):
    env = _NATIVE if native else _TEXT
    return env.from_string(source)


def _render(source: str, context: dict, native: bool) -> Any:
    try:
        template = _compile(source, native)
        return template.render(context)
    except TemplateError as err:
        raise Invalid(f"in expression {source!r}: {err.message or err}; "
                      f"names you can use: {', '.join(sorted(context))}") from None
    except (TypeError, ValueError, ZeroDivisionError, ArithmeticError) as err:
        raise Invalid(f"in expression {source!r}: {err}; fix the expression") from None


def render_text(source: str, context: dict) -> str:
    if not is_expression(source):
        return source
    return str(_render(source, context, native=False))


def render_value(source: Any, context: dict) -> Any:
    if not is_expression(source):
        return source
    return _render(source, context, native=True)
