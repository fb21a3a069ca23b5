"""One exception base so every entry point can turn failures into a single clear line."""


class KenningError(Exception):
    """A failure the user can act on; the message says what to do next."""


class FileProblemError(KenningError):
    """A file that cannot be read or validated; names the file and the field. Callers that
    read many files report it as one problem for that file and skip the file."""

    def __init__(self, path: str, field: str, problem: str):
        self.path = path
        self.field = field
        self.problem = problem
        super().__init__(f"{path}: {field}: {problem}")


class NotFoundError(KenningError):
    """An id, file or session the user named does not exist."""


class FactFileError(FileProblemError):
    """A fact file that cannot be read or validated."""
