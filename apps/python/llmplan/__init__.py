"""llmplan: what it takes to run or train a language model, from Python.

The same library as the ``llmplan`` command: every function returns the document that
``llmplan <command> ... --json`` prints, as Python dicts and lists (equal key for key). Options are
the CLI's, with ``-`` written ``_``::

    import llmplan
    llmplan.estimate("Qwen/Qwen2.5-7B-Instruct", ctx=8192)
    llmplan.estimate("meta-llama/Llama-3.1-8B", task="train", method="qlora", lora_targets=["q", "v"])
    llmplan.plan("qwen2.5-7b", weights="q4_k_m", kind=["laptop", "mac"])

A value the CLI would refuse raises :class:`llmplan.Error` (a ``ValueError``) with the CLI's
one-line message, which names the option, file or field.
"""
import json as _json
import os as _os

from . import _llmplan

__all__ = ["Error", "run", "inspect", "models", "estimate", "plan", "fit", "hardware", "check", "options"]


class Error(ValueError):
    """A question llmplan cannot answer as asked; the message is the CLI's (it names what was wrong)."""


_OPTIONS = _llmplan.option_table()
_COMMANDS = dict(_llmplan.commands())


def options(command=None):
    """The option table: each option's name (Python spelling), kind, values, default and help."""
    rows = []
    for o in _OPTIONS:
        if command is None or command in o["commands"]:
            rows.append(dict(o, name=o["name"].replace("-", "_")))
    return rows


def _spec(command, name):
    for o in _OPTIONS:
        if o["name"] == name and command in o["commands"]:
            return o
    return None


def _text(value):
    if isinstance(value, bool):
        return "1" if value else None
    if isinstance(value, float):
        return repr(value)  # shortest round-trip form: 0.9, 1e+20
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, _os.PathLike):
        return _os.fspath(value)
    raise Error(f"{value!r} is a {type(value).__name__}; expected a string, a number or a boolean")


def _pairs(command, options):
    pairs = []
    for key, value in options.items():
        name = key.replace("_", "-")
        spec = _spec(command, name)
        if spec is None or name == "log-name":
            raise Error(f"--{name}: unknown option for {command}; see llmplan.options({command!r})")
        if value is None:
            continue
        if isinstance(value, bool) and spec["kind"] == "choice" and spec["values"] == "on off":
            pairs.append((name, "on" if value else "off"))
            continue
        if isinstance(value, (list, tuple)):
            if spec["kind"] != "list":
                raise Error(f"--{name}: a list was given; expected one value")
            pairs.extend((name, _utf8(name, _text(v))) for v in value)
            continue
        if isinstance(value, bool) and spec["kind"] != "flag":
            raise Error(f"--{name}: a boolean was given; expected {spec['values'] or 'a value'}")
        text = _text(value)
        if text is not None:
            pairs.append((name, _utf8(name, text)))
    return pairs


def _utf8(name, text):
    """A str the library can take: one with a lone surrogate ("\\udc80", which os.fsdecode and
    errors="surrogateescape" make of bytes that are not UTF-8) has no UTF-8 form, and the native call
    would refuse it with a TypeError about its signature instead of naming the option."""
    if text is not None:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:
            raise Error(f"--{name}: {text[:40]!r} is not valid text ({e.reason} at character {e.start})") from None
    return text


def run(command, model=None, /, **options):
    """Answer one command (inspect, models, estimate, plan, fit, hardware, check) as `llmplan COMMAND
    MODEL --json` does, and return its document as dicts."""
    if command not in _COMMANDS:
        raise Error(f"{command}: unknown command; expected one of {', '.join(_COMMANDS)}")
    if model is not None:
        options = dict(options, model=model)
    status, body = _llmplan.answer(command, _pairs(command, options))
    text = body.decode("utf-8")
    if status == 200:
        return _json.loads(text)
    message = _json.loads(text).get("error", text)
    if status == 400:
        raise Error(message)
    raise RuntimeError(message)


def inspect(model, **options):
    return run("inspect", model, **options)


def models(filter=None, **options):
    return run("models", None, filter=filter, **options)


def estimate(model, **options):
    return run("estimate", model, **options)


def plan(model, **options):
    return run("plan", model, **options)


def fit(name=None, **options):
    return run("fit", None, name=name, **options)


def hardware(name=None, **options):
    return run("hardware", None, name=name, **options)


def check(log, **options):
    """An engine's log beside llmplan's estimate. `log` is the log's text, or a path to it."""
    if isinstance(log, _os.PathLike) or (isinstance(log, str) and "\n" not in log and _os.path.isfile(log)):
        path = _os.fspath(log)
        with open(path, encoding="utf-8", errors="replace") as f:
            log = f.read()
        options = dict(options)
    return run("check", None, log=log, **options)


def _describe(command, fn):
    lines = [_COMMANDS[command] + ".", "", "Options (keyword arguments):"]
    for o in options(command):
        default = f" [{o['default']}]" if o["default"] else ""
        values = f" ({o['values']})" if o["values"] and o["kind"] in ("choice", "list") else ""
        lines.append(f"    {o['name']}: {o['help']}{values}{default}")
    lines += ["", f"Returns the document of `llmplan {command} --json` as dicts; raises llmplan.Error on bad input."]
    fn.__doc__ = "\n".join(lines)


for _name in _COMMANDS:
    _describe(_name, globals()[_name])
