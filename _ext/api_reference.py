"""The API reference pages: every module of a package documented, and references to re-exports resolved.

Two additions to Sphinx's autodoc, for the pages under ``docs/api/``:

- ``.. api-modules:: irrepro.papers.sigir2020`` documents a package and each of its public
  submodules (found on disk, private ``_name`` modules left out), one ``automodule`` each, sorted.
  A module shows its members (those of its ``__all__``); a package its docstring and only the
  members it defines itself or takes from a private module, so every function is documented once,
  where it is defined, and a new module appears without editing a page. ``:exclude:`` takes
  module names to leave out (space-separated). The output is a container of class
  ``irrepro-api``, where the book's style lets docstring examples wrap at the column's edge.
- A reference to a name a package re-exports (``irrepro.read_run``, or ``write_tables`` in the
  docstring of :mod:`irrepro.papers.clef2019`) resolves to where the object is documented
  (``irrepro.runs.read_run``): the ``missing-reference`` event imports the target and follows
  its ``__module__`` and ``__qualname__`` (to the public package, for a private module).
- Docutils reads ``CENTRE@CLEF`` in a docstring as an e-mail address; on the API pages such
  ``mailto:`` links are turned back into text (no docstring holds an address).
- Before the pages are read, the main process imports every module an ``api-modules`` directive
  of a page to be read documents: the processes that read pages in parallel are forked from it
  and share those imports rather than each importing pandas, scikit-learn, statsmodels ... again,
  and resolving references afterwards (in the main process) needs them too.
- A field of a dataclass (or named tuple) that the class's docstring describes (Parameters or
  Attributes) and that has no docstring of its own is not listed a second time as an attribute
  with only its type (:class:`FieldsOnceClassDocumenter`); a reference to it goes to the class.
- Module constants of ``__all__`` are documented even without a ``#:`` comment or a type
  annotation (autodoc would skip them, and references to them would not resolve); one whose
  value would print longer than :data:`MAX_VALUE_CHARS` (a dict of claims, a table of presets)
  is documented without its value.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import inspect
import pkgutil
import re
import sys
import warnings
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from numpydoc.docscrape import NumpyDocString
from sphinx.ext.autodoc import ClassDocumenter, DataDocumenter, ModuleDocumenter, ObjectMember
from sphinx.util.docutils import SphinxDirective
from sphinx.util.inspect import object_description

MAX_VALUE_CHARS = 80
OPTIONS = ("   :members:", "   :undoc-members:")  # undocumented names of __all__ are listed too
API_MODULES = re.compile(r"^[ \t]*\.\. api-modules:: *(\S+)", flags=re.MULTILINE)


def public_modules(package: str) -> list[str]:
    """``package`` and the import paths of its public submodules, recursively, sorted."""
    return list(_public_modules(package))


@functools.cache  # asked for each page before reading (imports, read costs) and by each directive
def _public_modules(package: str) -> tuple[str, ...]:
    module = importlib.import_module(package)
    found = [package]
    for info in pkgutil.walk_packages(getattr(module, "__path__", []), prefix=f"{package}."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            found.append(info.name)
    return tuple(sorted(found))


def documented_packages(text: str) -> list[str]:
    """The packages the ``api-modules`` directives of a page's source ``text`` document, in order."""
    return API_MODULES.findall(text)


def import_documented_modules(app, env, docnames: list[str]) -> None:
    """Import every module the pages ``docnames`` will document, before Sphinx forks its readers."""
    for docname in docnames:
        for package in documented_packages(Path(env.doc2path(docname)).read_text(encoding="utf-8")):
            for name in public_modules(package):
                importlib.import_module(name)


class ApiModules(SphinxDirective):
    """``.. api-modules:: PACKAGE``: an ``automodule`` for the package and each public submodule."""

    required_arguments = 1
    option_spec = {"exclude": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        excluded = set(self.options.get("exclude", "").split())
        lines: list[str] = []
        for name in public_modules(self.arguments[0]):
            if name in excluded or any(name.startswith(f"{prefix}.") for prefix in excluded):
                continue
            lines += [f".. automodule:: {name}", *_member_options(importlib.import_module(name)), ""]
        container = nodes.container(classes=["irrepro-api"])  # _static/irrepro.css wraps its long lines
        self.state.nested_parse(StringList(lines, source=self.get_source_info()[0]), self.content_offset, container)
        return [container]


def _is_private(module_name: str) -> bool:
    return any(part.startswith("_") for part in module_name.split("."))


def _own_names(package) -> set[str]:
    """Names a package's ``__init__`` binds itself or imports from a private module (read from its source)."""
    tree = ast.parse(inspect.getsource(package))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {name.id for target in targets for name in ast.walk(target) if isinstance(name, ast.Name)}
        elif isinstance(node, ast.ImportFrom) and (node.level and not node.module or _is_private(node.module or "")):
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def _member_options(module) -> list[str]:
    """A module's members; for a package, only those defined in it or in a private submodule."""
    if not hasattr(module, "__path__"):
        return list(OPTIONS)
    own = [name for name in getattr(module, "__all__", []) if name in _own_names(module)]
    return [f"{OPTIONS[0]} {', '.join(own)}", OPTIONS[1]] if own else []


def _public_home(module_name: str, name: str, found) -> str:
    """The nearest public package above a private module that re-exports ``found`` as ``name``."""
    parts = module_name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        package = ".".join(parts[:split])
        if not _is_private(package) and getattr(importlib.import_module(package), name, None) is found:
            return package
    return module_name


def _lookup(path: str):
    """The object at a dotted path (a module, then attributes), or None."""
    parts = path.split(".")
    for split in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            target = getattr(target, attribute, None)
        return target
    return None


def _data_home(candidate: str, found) -> str | None:
    """The public module below ``candidate``'s package whose ``__all__`` holds this very object."""
    package, _, name = candidate.rpartition(".")
    homes = sorted(
        module_name for module_name, module in list(sys.modules.items())
        if module_name.startswith(f"{package}.") and not _is_private(module_name)
        and name in getattr(module, "__all__", ()) and getattr(module, name, None) is found
    )  # fmt: skip
    return f"{homes[0]}.{name}" if homes else None


def _home(candidate: str, found) -> str | None:
    """Where ``found``, reached as ``candidate``, is documented."""
    if inspect.ismodule(found):
        return found.__name__
    defined_in, qualname = getattr(found, "__module__", None), getattr(found, "__qualname__", None)
    if defined_in and qualname:  # a function or a class
        if _is_private(defined_in) and "." not in qualname:
            defined_in = _public_home(defined_in, qualname, found)
        return f"{defined_in}.{qualname}"
    owner_name, _, name = candidate.rpartition(".")
    owner = _lookup(owner_name)
    if inspect.isclass(owner):  # an attribute or property: documented with its class
        return _member_home(owner_name, owner, name)
    # a constant: documented where __all__ lists it (a package's own constants in the package)
    listed = inspect.ismodule(owner) and name in getattr(owner, "__all__", ())
    if listed and (not hasattr(owner, "__path__") or name in _own_names(owner)):
        return f"{owner.__name__}.{name}"  # the module's own name, however it was reached
    return _data_home(candidate, found)


def _field_home(candidate: str) -> str | None:
    """A dataclass field without a default (no class attribute to look up), with its class."""
    owner_name, _, name = candidate.rpartition(".")
    owner = _lookup(owner_name) if owner_name.startswith("irrepro.") else None
    if inspect.isclass(owner) and name in getattr(owner, "__annotations__", {}):
        return _member_home(owner_name, owner, name)
    return None


def _member_home(owner_name: str, owner: type, name: str) -> str:
    """Where the member ``name`` of the class ``owner`` is documented: its own entry, or the class
    for a field the class's docstring describes (:class:`FieldsOnceClassDocumenter`)."""
    home = _home(owner_name, owner)
    return home if name in described_fields(owner) else f"{home}.{name}"


@functools.cache  # every signature names str, int, pd.DataFrame ...: thousands of references, few targets
def canonical_name(target: str, module: str | None = None, class_name: str | None = None) -> str | None:
    """Where the object a reference names is documented (``module.qualname``), if not at ``target``.

    The target is looked up in the class and module of the reference, then in the packages above
    it (as a package's docstring names what its submodules define), then as a full path. Each
    failed lookup tries to import a module that does not exist, so the answer is kept per target,
    module and class.
    """
    scopes = module.split(".") if module else []
    candidates = [".".join([*scopes[:depth], target]) for depth in range(len(scopes), -1, -1)]
    if module and class_name:  # a method's docstring names a field of its class
        candidates.insert(0, f"{module}.{class_name}.{target}")
    for candidate in candidates:
        found = _lookup(candidate) if candidate.startswith("irrepro.") else None
        home = _home(candidate, found) if found is not None else _field_home(candidate)
        if home is not None and home != target:
            return home
    return None


def _resolve_reexport(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    canonical = canonical_name(node["reftarget"], node.get("py:module"), node.get("py:class"))
    if canonical is None:
        return None
    return env.get_domain("py").resolve_xref(
        env, node["refdoc"], app.builder, node["reftype"], canonical, node, contnode
    )


def described_fields(cls) -> set[str]:
    """The fields of the dataclass or named tuple ``cls`` that its docstring's Parameters or Attributes describe."""
    fields = {field.name for field in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    if issubclass(cls, tuple):  # a named tuple
        fields |= set(getattr(cls, "_fields", ()))
    if not fields:
        return set()
    with warnings.catch_warnings():  # numpydoc warns of unknown sections when it renders the class
        warnings.simplefilter("ignore")
        sections = NumpyDocString(inspect.getdoc(cls) or "")
    entries = [entry for section in ("Parameters", "Attributes") for entry in sections[section]]
    return fields & {name.strip() for entry in entries for name in entry.name.split(",")}


class FieldsOnceClassDocumenter(ClassDocumenter):
    """A class as autodoc documents it, without a second entry for a field its docstring describes.

    autodoc lists each field of a dataclass as an attribute of its own, with its type and no text
    when the field has no docstring (``#:``) of its own, below the class's Parameters section that
    already gives its type and meaning. Such fields are left out; references to them go to the class.
    """

    priority = ClassDocumenter.priority + 1

    def filter_members(self, members: list[ObjectMember], want_all: bool) -> list[tuple[str, Any, bool]]:
        described = described_fields(self.object)
        own_docs = self.analyzer.find_attr_docs() if self.analyzer else {}
        namespace = ".".join(self.objpath)
        kept = [member for member in members if member.__name__ not in described
                or member.docstring or (namespace, member.__name__) in own_docs]  # fmt: skip
        return super().filter_members(kept, want_all)


class ShortDataDocumenter(DataDocumenter):
    """Module data as autodoc documents it, without a value longer than :data:`MAX_VALUE_CHARS`."""

    priority = DataDocumenter.priority + 1

    @classmethod
    def can_document_member(cls, member, membername: str, isattr: bool, parent) -> bool:
        plain_value = not (callable(member) or inspect.ismodule(member))
        return isinstance(parent, ModuleDocumenter) and (isattr or plain_value)

    def should_suppress_value_header(self) -> bool:
        return super().should_suppress_value_header() or len(object_description(self.object)) > MAX_VALUE_CHARS


def _unlink_addresses(app, doctree) -> None:
    for container in doctree.findall(nodes.container):
        if "irrepro-api" not in container["classes"]:
            continue
        for link in list(container.findall(nodes.reference)):
            if link.get("refuri", "").startswith("mailto:"):
                link.replace_self(nodes.Text(link.astext()))


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")
    app.connect("doctree-read", _unlink_addresses)
    app.add_autodocumenter(ShortDataDocumenter, override=True)
    app.add_autodocumenter(FieldsOnceClassDocumenter, override=True)
    app.add_directive("api-modules", ApiModules)
    app.connect("missing-reference", _resolve_reexport)
    app.connect("env-before-read-docs", import_documented_modules)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1.0"}
