"""jinja2 expressions in decks and templates, always evaluated in a bounded jinja2 sandbox.

`render_text` gives a string (`"Score! {{ n }}"`); `render_value` keeps the native
type of a lone expression (`"{{ n }}"` gives the integer), so counts and sizes can
be computed.

Compiling an expression (jinja2's parser, code generator, then Python's compiler) takes about a millisecond;
the code compiled is kept in the user's cache folder (cache.py), for the same Python, jinja2 and deckpress
(whose digest covers this module's sandbox), so the next command takes it instead: the same code, so the
same values. A deck's read compiles the expressions of the deck and its templates (`warm`) before the
builders and the drawing processes fork, which then compile none of them.

The sandbox also bounds what one expression may cost: at most MAX_STEPS loop turns and calls, texts
and lists of at most MAX_TEXT characters or items, whole numbers of at most MAX_BITS bits. Operators
that could make more (`'x' * 10**9`, `9 ** (9 ** 9)`) are checked before they run, so jinja2 never
folds them at compile time either.
"""

from __future__ import annotations

import marshal
import re
import sys
import types
from functools import lru_cache
from typing import Any

import jinja2
from jinja2 import StrictUndefined, TemplateError, nodes
from jinja2.nativetypes import NativeCodeGenerator, native_concat
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer

from .options import Invalid

MAX_STEPS = 100_000
MAX_TEXT = 100_000
MAX_BITS = 4096

# A width or precision of 6 or more digits, or one taken from the arguments, in `%` and str.format.
_WIDE_PERCENT = re.compile(r"%[-#0 +]*(\*|\d{6,}|\d*\.(\*|\d{6,}))")
_WIDE_FORMAT = re.compile(r"\{[^{}]*:[^{}]*(\{|\d{6,})")


class _TooMuch(Exception):
    """An expression went past a limit; the message says which."""


def _size(value: Any) -> int:
    """Characters and items `value` holds, counted until past MAX_TEXT."""
    total, todo = 0, [value]
    while todo and total <= MAX_TEXT:
        item = todo.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, (list, tuple, dict, set, frozenset)):
            total += len(item)
            todo.extend(item.values() if isinstance(item, dict) else item)
        elif isinstance(item, int) and not isinstance(item, bool) and item.bit_length() > MAX_BITS:
            raise _TooMuch(f"a number of more than {MAX_BITS} bits")
    return total


def _sized(value: Any) -> Any:
    if _size(value) > MAX_TEXT:
        raise _TooMuch(f"a text or list of more than {MAX_TEXT} characters or items")
    return value


def _estimate(name: str, value: Any, args: tuple) -> int:
    """An upper bound of the size of `value.name(*args)` (or the filter `name`) for the operations that
    can make much more than they are given; 0 for the others."""
    if name == "join" and isinstance(value, (list, tuple)):
        sep = args[0] if args and isinstance(args[0], str) else ""
        return _size(value) + len(sep) * len(value)
    if name == "replace" and isinstance(value, str) and len(args) >= 2:
        old, new = str(args[0]), str(args[1])
        return len(value) + (value.count(old) if old else len(value) + 1) * len(new)
    if name == "indent" and isinstance(value, str) and args and isinstance(args[0], str):
        return len(value) * (1 + len(args[0]))
    if name == "format" and isinstance(value, str) and _WIDE_PERCENT.search(value):
        return MAX_TEXT + 1
    return 0


def _check_args(name: str, value: Any, args: tuple, kwargs: dict) -> None:
    numbers = () if name in ("format", "format_map") else (*args, *kwargs.values())  # widths: _WIDE_*
    for arg in numbers:
        if isinstance(arg, int) and not isinstance(arg, bool) and abs(arg) > MAX_TEXT:
            raise _TooMuch(f"{name}() with {arg}, more than {MAX_TEXT}")
    if _estimate(name, value, args) > MAX_TEXT:
        raise _TooMuch(f"{name}() making more than {MAX_TEXT} characters or items")


class _Bounds(NodeTransformer):
    """Routes every loop through `environment.counted` and every `~` through `environment.sized`."""

    def visit_For(self, node: nodes.For) -> nodes.For:
        self.generic_visit(node)
        node.iter = _guard("counted", node.iter)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)
        return _guard("sized", node)


def _guard(name: str, node: nodes.Expr) -> nodes.Call:
    return nodes.Call(nodes.EnvironmentAttribute(name), [node], [], None, None, lineno=node.lineno)


class _BoundedSandbox(ImmutableSandboxedEnvironment):
    intercepted_binops = frozenset(["*", "**", "+", "%"])
    steps = 0  # of the expression being rendered (one at a time per process)

    def __init__(self, **options):
        super().__init__(**options)
        self.filters = {name: self._bounded_filter(name, f) for name, f in self.filters.items()}

    def _parse(self, source, name, filename):
        return _Bounds().visit(super()._parse(source, name, filename))

    def step(self) -> None:
        _BoundedSandbox.steps += 1
        if _BoundedSandbox.steps > MAX_STEPS:
            raise _TooMuch(f"more than {MAX_STEPS} loop turns and calls")

    def counted(self, iterable):
        for item in iterable:
            self.step()
            yield item

    def sized(self, value):
        return _sized(value)

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (jinja2's own signature)
        __self.step()
        _check_args(getattr(__obj, "__name__", "call"), getattr(__obj, "__self__", None), args, kwargs)
        return _sized(super().call(__context, __obj, *args, **kwargs))

    def wrap_str_format(self, value):
        wrapped = super().wrap_str_format(value)
        if wrapped is not None and _WIDE_FORMAT.search(value.__self__):
            raise _TooMuch("a format width of more than 5 digits")
        return wrapped

    def call_binop(self, context, op: str, left, right):
        if op == "**" and isinstance(left, int) and isinstance(right, int) and right > 0 \
                and right * max(1, abs(left).bit_length() - 1) > MAX_BITS:
            raise _TooMuch(f"a number of more than {MAX_BITS} bits")
        if op == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and len(seq) * times > MAX_TEXT:
                    raise _TooMuch(f"a text or list of more than {MAX_TEXT} characters or items")
        if op == "+" and isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)) \
                and len(left) + len(right) > MAX_TEXT:
            raise _TooMuch(f"a text or list of more than {MAX_TEXT} characters or items")
        if op == "%" and isinstance(left, str) and _WIDE_PERCENT.search(left):
            raise _TooMuch("a format width of more than 5 digits")
        return _sized(self.binop_table[op](left, right))

    def _bounded_filter(self, name: str, function):
        def bounded(*args, **kwargs):
            start = 2 if getattr(function, "jinja_pass_arg", None) else 1  # after the context and value
            value = args[start - 1] if len(args) >= start else None
            _check_args(name, value, args[start:], kwargs)
            return _sized(function(*args, **kwargs))
        bounded.__dict__.update(getattr(function, "__dict__", {}))  # keeps jinja2's pass_context marks
        return bounded


class _NativeSandbox(_BoundedSandbox):
    code_generator_class = NativeCodeGenerator
    concat = staticmethod(native_concat)


_TEXT = _BoundedSandbox(undefined=StrictUndefined, keep_trailing_newline=True)
_NATIVE = _NativeSandbox(undefined=StrictUndefined)


def is_expression(value: Any) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


KEPT = "expressions.marshal"  # in the cache folder: {"key": ..., "code": {(native, source): code}}
MAX_KEPT = 4096


def _key() -> str:
    from .inputs import package_digest

    return f"{sys.version}|{jinja2.__version__}|{package_digest()}"


class Compiled:
    """The code of the expressions this process has: read once from the cache folder, compiled where it was not
    there, and the templates made from it. Its content is a pure function of each expression's source (the same
    code for the same source), so one of it serves the whole process, as Python's re module keeps its compiled
    patterns; `forget()` makes it as in a new process."""

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        self.code: dict[tuple[bool, str], types.CodeType] | None = None  # read on first use
        self.used: set[tuple[bool, str]] = set()
        self.new: set[tuple[bool, str]] = set()  # compiled in this process, not kept yet
        self.template = lru_cache(maxsize=4096)(self._template)

    def _all(self) -> dict[tuple[bool, str], types.CodeType]:
        if self.code is None:
            from . import cache

            try:
                kept = marshal.loads((cache.folder() / KEPT).read_bytes())
            except (OSError, ValueError, EOFError, TypeError):
                kept = None
            code = kept.get("code") if isinstance(kept, dict) and kept.get("key") == _key() else None
            self.code = {key: value for key, value in code.items() if isinstance(value, types.CodeType)} \
                if isinstance(code, dict) else {}
        return self.code

    def code_of(self, source: str, native: bool) -> types.CodeType:
        """The code of the expression, kept or compiled now (env.compile: what env.from_string compiles)."""
        code = self._all()
        key = (native, source)
        self.used.add(key)
        if key not in code:
            code[key] = (_NATIVE if native else _TEXT).compile(source)
            self.new.add(key)
        return code[key]

    def _template(self, source: str, native: bool):
        env = _NATIVE if native else _TEXT
        return env.template_class.from_code(env, self.code_of(source, native), env.make_globals(None), None)

    def keep(self) -> None:
        """Keep the code in the cache folder, when this process compiled any: at most MAX_KEPT (else that of
        the expressions this process used alone)."""
        if not self.new:
            return
        from . import cache

        code = self._all()
        kept = code if len(code) <= MAX_KEPT else {key: code[key] for key in self.used if key in code}
        try:
            data = marshal.dumps({"key": _key(), "code": kept})
        except ValueError:  # a constant marshal cannot write: nothing kept
            return
        cache.store_bytes(cache.folder() / KEPT, data)
        self.new.clear()


COMPILED = Compiled()


def warm(data: Any) -> None:
    """Have the code of each expression in `data` (a deck's or template's plain data), as a text and as a value,
    kept or compiled now: the processes forked after it find it. One that does not compile is left to its
    rendering, which says what is wrong with it."""
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo += item.values()
        elif isinstance(item, list):
            todo += item
        elif is_expression(item):
            for native in (False, True):
                try:
                    COMPILED.code_of(item, native)
                except Exception:  # noqa: BLE001 (rendering it raises the same, and reports it)
                    pass


def _render(source: str, context: dict, native: bool) -> Any:
    _BoundedSandbox.steps = 0
    shown = source if len(source) <= 80 else source[:77] + "..."
    try:
        template = COMPILED.template(source, native)
        return _sized(template.render(context))
    except _TooMuch as err:
        raise Invalid(f"expression {shown!r} goes past a limit: {err}; simplify it "
                      "(see Limits in docs/deck-format.md)") from None
    except TemplateError as err:
        raise Invalid(f"in expression {shown!r}: {err.message or err}; "
                      f"names you can use: {', '.join(sorted(context))}") from None
    except RecursionError:
        raise Invalid(f"expression {shown!r} calls itself too deeply; simplify it") from None
    except (TypeError, ValueError, ZeroDivisionError, ArithmeticError) as err:
        raise Invalid(f"in expression {shown!r}: {err}; fix the expression") from None


def render_text(source: str, context: dict) -> str:
    if not is_expression(source):
        return source
    return str(_render(source, context, native=False))


def render_value(source: Any, context: dict) -> Any:
    if not is_expression(source):
        return source
    return _render(source, context, native=True)
