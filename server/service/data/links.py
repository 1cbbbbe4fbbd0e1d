"""A bot folder as a tree of names, and where its symbolic links lead once written.

A link is judged the way the file system will follow it, not by its text: ``a/b/c/s -> ../..``
is ``a``, inside, and ``x -> a/b/c/s/../../../..``, which reads as ``.``, is three levels
above the folder, since the file system follows ``s`` before it reads the ``..`` after it.
:meth:`Tree.leads_outside` walks a link's target one name at a time over the tree, from the
link's own folder: ``..`` goes up (above the top: outside), a name that is a link is followed
(its own resolution, worked out once and remembered), a name that is not in the tree is
taken for a folder that may yet be made there (so that nothing below a missing name can
climb out either). Absolute targets lead outside. A link that comes back to itself, or whose
resolution follows more than :data:`MAX_FOLLOWED` links (Linux's own limit), is refused too:
the file system would not open it.

The cost is linear: each node is made once, each link's target is walked once.
:mod:`.uploads.archives` builds a tree from an archive's headers before anything is written;
:mod:`.submissions` from a copied folder, whose links anyone with access to the submissions
folder may have made.
"""

from __future__ import annotations

__all__ = ["MAX_FOLLOWED", "InTheWay", "Node", "Tree"]

#: The most links one resolution follows (Linux: ``MAXSYMLINKS``, after which ``ELOOP``).
MAX_FOLLOWED = 40
_BUSY = object()


class Node:
    """A name of the tree: a folder (``children``), a file or a link (``target``).
    ``raw``: the name as its archive spelled it (for messages); ``named``: whether an entry
    of its own made it (else a folder made for the entries below it)."""

    __slots__ = ("name", "parent", "kind", "target", "raw", "named", "children", "payload")

    def __init__(self, name: str, parent: Node | None, kind: str, raw: str) -> None:
        self.name = name
        self.parent = parent
        self.kind = kind  # "dir", "file", "link"
        self.target = ""
        self.raw = raw
        self.named = False
        self.children: dict[str, Node] | None = {} if kind == "dir" else None
        self.payload: object = None



class Tree:
    """The names of a folder, from :meth:`add` calls; then where each link leads."""

    def __init__(self) -> None:
        self.top = Node("", None, "dir", "")
        #: Nodes made, the top left out.
        self.size = 0
        #: A link's resolution once worked out: ``(node, depth below it, links followed)``,
        #: None when it leads outside, ``_BUSY`` while it is being worked out.
        self._resolved: dict[Node, object] = {}

    def add(self, parts: list[str], kind: str, raw: str) -> Node:
        """Put the entry ``parts`` (its names, top first) of ``kind`` (``raw``: its name as
        spelled) in the tree, making the folders above it where missing; its node.
        :class:`InTheWay` if another name is in its way (nothing is added then)."""
        node = self.top
        for name in parts[:-1]:
            child = node.children.get(name)
            if child is None:
                child = node.children[name] = Node(name, node, "dir", raw)
                self.size += 1
            elif child.kind != "dir":
                raise InTheWay("above", child)
            node = child
        found = node.children.get(parts[-1])
        if found is None:
            found = node.children[parts[-1]] = Node(parts[-1], node, kind, raw)
            self.size += 1
        elif found.kind == "dir" == kind:
            if not found.named:  # a folder listed after what it holds
                found.raw = raw
        elif found.kind == "dir" and not found.named:
            raise InTheWay("below", found)
        else:
            raise InTheWay("taken", found)
        found.named = True
        return found

    def find(self, parts: list[str]) -> Node | None:
        """The node of ``parts``, links not followed; None if there is none."""
        node = self.top
        for name in parts:
            if node.children is None or (node := node.children.get(name)) is None:
                return None
        return node

    def folders(self) -> dict[Node, str]:
        """Every folder's path from the top ("" for the top), each after the folder it is
        in; each path made once from its folder's (linear in their length)."""
        paths = {self.top: ""}
        stack = [self.top]
        while stack:
            node = stack.pop()
            above = paths[node] + "/" if node is not self.top else ""
            for child in node.children.values():
                if child.kind == "dir":
                    paths[child] = above + child.name
                    stack.append(child)
        return paths

    def leads_outside(self, link: Node) -> str | None:
        """Why ``link`` (a node of this tree) does not resolve inside the tree's top, or
        None: "outside", "loop" (it comes back to itself), or "too many links" (more than
        :data:`MAX_FOLLOWED` followed)."""
        try:
            return "outside" if self._resolve(link, 0) is None else None
        except _Refused as refused:
            return refused.why

    def _resolve(self, link: Node, depth: int):
        known = self._resolved.get(link)
        if known is _BUSY:
            raise _Refused("loop")
        if known is not None or link in self._resolved:
            return known
        if depth > MAX_FOLLOWED:
            raise _Refused("too many links")
        self._resolved[link] = _BUSY
        found = self._walk(link, depth)
        self._resolved[link] = found
        return found

    def _walk(self, link: Node, depth: int):
        if link.target.startswith("/"):
            return None
        node, below, followed = link.parent, 0, 0
        for name in link.target.split("/"):
            if name in ("", "."):
                continue
            if name == "..":
                if below:
                    below -= 1
                elif node.parent is None:
                    return None
                else:
                    node = node.parent
                continue
            if below:
                below += 1
                continue
            child = node.children.get(name) if node.children is not None else None
            if child is None:
                below = 1  # not in the tree: a folder that may be made there later
            elif child.kind == "link":
                found = self._resolve(child, depth + 1)
                if found is None:
                    return None
                node, below, more = found
                followed += more + 1
                if followed > MAX_FOLLOWED:
                    raise _Refused("too many links")
            else:
                node = child
        return node, below, followed


class InTheWay(Exception):
    """An entry cannot be added: ``where`` is "above" (``node``, a file or a link, is one of
    the folders the entry is in), "below" (the entry is not a folder, and ``node``, the
    folder of its name, holds entries already: ``node.raw`` is one of them) or "taken"
    (``node`` has the entry's name)."""

    def __init__(self, where: str, node: Node) -> None:
        super().__init__(where)
        self.where = where
        self.node = node


class _Refused(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why
