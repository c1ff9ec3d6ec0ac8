"""The package's version, written in this one place (pyproject, ``irrepro --version``, the book's footer
and every manifest read it); a module of its own so that any layer can import it without the
package's face."""

__all__ = ["__version__"]

__version__ = "0.2.0"
