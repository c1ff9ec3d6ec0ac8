"""The user's own corpora for the routing runs: a small TOML file naming paths, formats and qrels.

Licensed collections cannot ship with the compendium; a user who has them lists them once::

    [corpora.robust04]                      # the name used on the command line
    format = "trec"                         # trec | nyt | wapo | reuters21578 (irrepro.routing.corpora)
    paths = ["/data/disk4", "/data/disk5"]  # files or folders (folders are searched)
    qrels = "qrels/robust04.txt"            # a file, or a name of the data registry

The file is found, in this order, at ``--config PATH``, at ``$IRREPRO_ROUTING_CONFIG``, or at
``routing-corpora.toml`` in the current folder (``routing-corpora.example.toml`` in the repository is
a template). The training roles of the systems are the corpora named ``robust04`` and ``robust05``.
Every error names the file and the setting to change.

:func:`configured_collections` is the one place that turns names into collections ready for
:func:`irrepro.routing.pipeline.route` (``irrepro routing run`` and the routing chapter both use it).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from irrepro.routing.corpora import ReadStats, read_corpus
from irrepro.routing.pipeline import Collection, Corpus

__all__ = [
    "CONFIG_VARIABLE",
    "DEFAULT_CONFIG",
    "ConfigError",
    "CorpusSetting",
    "find_config",
    "read_config",
    "configured_collections",
]

CONFIG_VARIABLE = "IRREPRO_ROUTING_CONFIG"
DEFAULT_CONFIG = "routing-corpora.toml"
FORMATS = ("trec", "nyt", "wapo", "reuters21578")
#: The ir_datasets identifiers of the TREC collections a corpus named by its role stands for
#: (written into the ir_metadata headers of runs made on it).
IR_DATASETS = {
    "robust04": "disks45/nocr/trec-robust-2004",
    "robust05": "aquaint/trec-robust-2005",
    "core17": "nyt/trec-core-2017",
    "core18": "wapo/v2/trec-core-2018",
}


class ConfigError(ValueError):
    """The corpora configuration is missing or wrong; the message names the file and the setting."""


@dataclass(frozen=True)
class CorpusSetting:
    """One corpus of the configuration: where its files are, how to read them, its qrels.

    Parameters
    ----------
    name : str
        The corpus's name in the configuration.
    format : str
        Its reader, one of ``FORMATS`` (``"trec"``, ``"nyt"``, ``"wapo"``, ``"reuters21578"``).
    paths : tuple of pathlib.Path
        Its files or folders.
    qrels : str
        A path or a data-registry name.
    source : pathlib.Path
        The configuration file.
    """

    name: str
    format: str
    paths: tuple[Path, ...]
    qrels: str  # a path or a data-registry name
    source: Path  # the configuration file

    def setting(self, key: str) -> str:
        """Name a setting of this corpus as an error message points to it.

        Parameters
        ----------
        key : str
            The setting (``"paths"``, ``"qrels"``).

        Returns
        -------
        str
            ``[corpora.NAME] KEY in FILE``.
        """
        return f"[corpora.{self.name}] {key} in {self.source}"

    def check_paths(self) -> None:
        """Raise :class:`ConfigError` unless every path exists and is readable."""
        for path in self.paths:
            if not path.exists():
                raise ConfigError(f"corpus path {path} does not exist; change {self.setting('paths')}")
            if not os.access(path, os.R_OK):
                raise ConfigError(f"corpus path {path} is not readable; change {self.setting('paths')}")

    def about(self) -> dict[str, str]:
        """Describe the corpus for the ir_metadata header of a run made on it.

        Its format and the configuration's name (no path: the data, not where one machine keeps it; the
        judgments are identified by their sha256), the ir_datasets identifier of a corpus named by its
        TREC role.

        Returns
        -------
        dict of str -> str
            The fields.
        """
        about = {"source": f"configured corpus [corpora.{self.name}], format {self.format}"}
        if self.name in IR_DATASETS:
            about["ir_datasets"] = IR_DATASETS[self.name]
        return about

    def qrels_path(self) -> Path:
        """Find the qrels file: the configured path if it exists, else the data-registry file of that name.

        Returns
        -------
        pathlib.Path
            The qrels file.

        Raises
        ------
        ConfigError
            If neither exists or the file is not readable.
        """
        path = Path(self.qrels).expanduser()
        if not path.is_absolute():
            relative = self.source.parent / path
            if relative.exists():
                path = relative
        if path.exists():
            if not os.access(path, os.R_OK):
                raise ConfigError(f"qrels file {path} is not readable; change {self.setting('qrels')}")
            return path
        from irrepro import data

        if self.qrels in data.registry():
            return data.fetch(self.qrels)
        raise ConfigError(
            f"qrels {self.qrels!r} is neither a file nor a data-registry name; change {self.setting('qrels')}"
        )


def find_config(explicit: str | os.PathLike | None = None, *, required: bool = True) -> Path | None:
    """Find the configuration file: ``explicit``, else ``$IRREPRO_ROUTING_CONFIG``, else ``./routing-corpora.toml``.

    Parameters
    ----------
    explicit : str or path-like, optional
        A file given by the user.
    required : bool, default True
        Raise when there is none; else give ``None``.

    Returns
    -------
    pathlib.Path or None
        The file.

    Raises
    ------
    ConfigError
        If the file is missing and ``required``.
    """
    if explicit is not None:
        path, how = Path(explicit), "--config"
    elif os.environ.get(CONFIG_VARIABLE):
        path, how = Path(os.environ[CONFIG_VARIABLE]), f"${CONFIG_VARIABLE}"
    else:
        path, how = Path(DEFAULT_CONFIG), "the default location"
    if not path.is_file():
        if not required:
            return None
        raise ConfigError(
            f"no corpora configuration at {path} ({how}); copy routing-corpora.example.toml, fill in your "
            f"corpus paths and pass it with --config or set {CONFIG_VARIABLE}"
        )
    return path


def read_config(path: str | os.PathLike) -> dict[str, CorpusSetting]:
    """Parse the configuration file (paths not yet checked).

    Parameters
    ----------
    path : str or path-like
        The TOML file.

    Returns
    -------
    dict of str -> CorpusSetting
        Corpus name -> setting.

    Raises
    ------
    ConfigError
        Naming the file (and the table): unreadable, not TOML, no corpus, an unknown or missing
        setting, an unknown format, or paths or qrels of the wrong kind.
    """
    path = Path(path)
    try:
        with path.open("rb") as handle:
            table = tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except OSError as error:
        raise ConfigError(f"cannot read corpora configuration {path}: {error}") from None
    corpora = table.get("corpora")
    if not isinstance(corpora, dict) or not corpora:
        raise ConfigError(f"{path}: no [corpora.NAME] table; see routing-corpora.example.toml")
    settings = {}
    for name, entry in corpora.items():
        where = f"[corpora.{name}] in {path}"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where} must be a table with format, paths and qrels")
        unknown = set(entry) - {"format", "paths", "qrels"}
        if unknown:
            raise ConfigError(f"{where}: unknown setting(s) {', '.join(sorted(unknown))}")
        for key in ("format", "paths", "qrels"):
            if key not in entry:
                raise ConfigError(f"{where} lacks the setting {key!r}")
        if entry["format"] not in FORMATS:
            raise ConfigError(f"{where}: format {entry['format']!r} is not one of {', '.join(FORMATS)}")
        paths = entry["paths"]
        if isinstance(paths, str):
            paths = [paths]
        if not isinstance(paths, list) or not paths or not all(isinstance(p, str) for p in paths):
            raise ConfigError(f"{where}: paths must be a non-empty list of strings")
        if not isinstance(entry["qrels"], str):
            raise ConfigError(f"{where}: qrels must be a string (a path or a data-registry name)")
        resolved = tuple(
            (p if p.is_absolute() else path.parent / p) for p in (Path(item).expanduser() for item in paths)
        )
        settings[name] = CorpusSetting(name, entry["format"], resolved, entry["qrels"], path)
    return settings


def configured_collections(
    names: Sequence[str], config: str | os.PathLike | None = None, *, implementation="paper"
) -> tuple[Path, dict[str, Collection]]:
    """Read the named corpora of the configuration as collections with their qrels.

    Each corpus is a :class:`~irrepro.routing.pipeline.Corpus` that re-reads its files on every
    pass; reading a corpus raises :class:`ConfigError` when a pass yields no document.

    Parameters
    ----------
    names : sequence of str
        The corpora.
    config : str or path-like, optional
        The configuration file (found by :func:`find_config`).
    implementation : str or Implementation, default "paper"
        The text rule (a name or an :class:`~irrepro.routing.implementations.Implementation`).

    Returns
    -------
    config : pathlib.Path
        The configuration file.
    collections : dict of str -> Collection
        Name -> collection.

    Raises
    ------
    ConfigError
        When the file is missing, a name is not configured, a path does not exist or is unreadable,
        or the qrels cannot be found.
    """
    from irrepro.routing.implementations import get
    from irrepro.runs import read_qrels

    implementation = get(implementation)
    path = find_config(config)
    settings = read_config(path)
    missing = [name for name in names if name not in settings]
    if missing:
        raise ConfigError(
            f"corpus {missing[0]!r} is not in {path}; add a [corpora.{missing[0]}] table "
            f"(needed: {', '.join(names)}; configured: {', '.join(settings)})"
        )
    collections = {}
    for name in names:
        setting = settings[name]
        setting.check_paths()
        options = implementation.reader_options(setting.format)
        corpus = Corpus(lambda s=setting, o=options: _documents(s, o), name=name)
        collections[name] = Collection(name, corpus, read_qrels(setting.qrels_path()), about=setting.about())
    return path, collections


def _documents(setting: CorpusSetting, options: dict):
    """The corpus's documents, read afresh; a pass that yields none raises :class:`ConfigError`
    (a wrong format or folder would otherwise give an empty run, or a system trained on nothing)."""
    stats = ReadStats()
    yield from read_corpus(setting.format, list(setting.paths), stats=stats, **options)
    if stats.documents == 0:
        found = f"{stats.files} file(s) read as {setting.format!r}"
        if stats.skipped:
            found += f", {stats.skipped} malformed document(s) skipped"
        if stats.empty:
            found += f", {stats.empty} document(s) of empty text passed over"
        raise ConfigError(f"corpus {setting.name!r} yields no documents ({found}: {', '.join(map(str, setting.paths))}); "
                          f"check format and paths of [corpora.{setting.name}] in {setting.source}")
