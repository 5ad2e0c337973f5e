#!/usr/bin/env python3
"""The C core's call graph, read from its object files: fails on a cycle or a leak.

A *unit* is one .c file of csrc/src; a *folder* its subject folder (base, melds, jokers,
settle, outlook, engine, search; api.c sits above them all). Unit A calls unit B when an object
of A needs (``nm``: U) a symbol an object of B defines. The core is meant to read from
the top down, so this script fails (exit 1) when:

- two units call each other, directly or round a longer cycle;
- two subject folders do (the same, one level up);
- any unit calls into api.c (the public entries' file is the top: a kernel that needs
  another kernel calls the internal function, never the public entry above both);
- a global symbol of the static library is visible (not hidden) but not declared in
  include/chinchon.h (``readelf``: an internal function every shared object linking
  the core would export);
- with --module: the built extension module exports (``nm -D``) a symbol that is neither
  the module's own (PyInit_*, Cython's __pyx_*) nor declared in chinchon.h.

Usage (plain Python, binutils' nm and readelf on PATH):
    callgraph.py --library BUILD/libchinchon_core.a [--module MODULE.so ...] [--dot]
    callgraph.py --module MODULE.so [--module ...]
    callgraph.py --self-test
The library is built standalone by ``cmake -S csrc -B BUILD`` (ctest runs this script:
csrc/tests/CMakeLists.txt); .ci/run checks the installed module too.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORE = HERE.parent  # csrc/
TOP_UNIT = "api.c"


# ------------------------------------------------------------------ reading


def public_names(header: Path) -> set[str]:
    """Every identifier chinchon.h declares or defines as a function or object."""
    text = header.read_text()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", text))


def unit_folders(src: Path) -> dict[str, str]:
    """Each .c file's name -> its folder under csrc/src ('.' for api.c)."""
    folders = {}
    for path in sorted(src.rglob("*.c")):
        rel = path.relative_to(src)
        if path.name in folders:
            raise SystemExit(f"callgraph: two units named {path.name}: the objects cannot tell them apart")
        folders[path.name] = rel.parent.as_posix()
    return folders


def unit_of(member: str) -> str:
    """The source file of an archive member or object path: 'hand.c.o' -> 'hand.c'."""
    name = Path(member).name
    for suffix in (".o", ".obj"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    if not name.endswith(".c"):
        name += ".c"
    return name


def parse_nm(text: str) -> dict[str, tuple[set[str], set[str]]]:
    """``nm -A`` output of an archive or objects -> unit: (defined globals, undefined)."""
    units: dict[str, tuple[set[str], set[str]]] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 2 or ":" not in parts[0]:
            continue
        # "archive:member.o:address" (an address, or nothing for U), or "object.o:..."
        member = next((x for x in reversed(parts[0].split(":")) if x.endswith((".o", ".obj"))), None)
        kind, name = parts[-2], parts[-1]
        if member is None or len(kind) != 1:
            continue
        defined, needed = units.setdefault(unit_of(member), (set(), set()))
        if kind == "U":
            needed.add(name)
        elif kind.isupper():  # a global definition (T, D, B, R, C...)
            defined.add(name)
    return units


def parse_readelf_visible(text: str) -> dict[str, set[str]]:
    """``readelf -sW`` of an archive -> unit: defined GLOBAL symbols of DEFAULT visibility."""
    visible: dict[str, set[str]] = {}
    unit = None
    for line in text.splitlines():
        m = re.match(r"File: .*\((.+)\)\s*$", line) or re.match(r"File: (.+\.o(bj)?)\s*$", line)
        if m:
            unit = unit_of(m.group(1))
            visible.setdefault(unit, set())
            continue
        parts = line.split()
        if unit is None or len(parts) < 8 or not parts[0].endswith(":"):
            continue
        _num, _value, _size, _type, bind, vis, ndx, name = parts[:8]
        if bind in ("GLOBAL", "WEAK") and vis == "DEFAULT" and ndx != "UND":
            visible[unit].add(name)
    return visible


def run(*cmd: str) -> str:
    try:
        return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    except FileNotFoundError:
        raise SystemExit(f"callgraph: {cmd[0]} not found (binutils)") from None
    except subprocess.CalledProcessError as e:
        raise SystemExit(f"callgraph: {' '.join(cmd)} failed:\n{e.stderr}") from None


# ------------------------------------------------------------------ graph


def call_graph(units: dict[str, tuple[set[str], set[str]]]) -> dict[str, dict[str, set[str]]]:
    """unit -> {callee unit: the symbols it needs from it}, calls within a unit left out."""
    owner = {}
    for unit, (defined, _) in units.items():
        for name in defined:
            owner[name] = unit
    graph: dict[str, dict[str, set[str]]] = {unit: {} for unit in units}
    for unit, (_, needed) in units.items():
        for name in needed:
            callee = owner.get(name)
            if callee is not None and callee != unit:
                graph[unit].setdefault(callee, set()).add(name)
    return graph


def cycles(graph: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def folder_graph(graph, folders: dict[str, str]) -> dict[str, dict[str, set[str]]]:
    """The unit graph one level up: folder -> {callee folder: 'unit -> unit' edges}."""
    out: dict[str, dict[str, set[str]]] = {}
    for unit, callees in graph.items():
        a = folders.get(unit, "?")
        out.setdefault(a, {})
        for callee in callees:
            b = folders.get(callee, "?")
            if a != b:
                out[a].setdefault(b, set()).add(f"{unit} -> {callee}")
    return out


def describe(component: list[str], graph) -> str:
    """The edges inside a cycle, one per line, with the symbols each needs."""
    lines = []
    for a in component:
        for b, names in sorted(graph.get(a, {}).items()):
            if b in component:
                lines.append(f"    {a} -> {b}: {', '.join(sorted(names))}")
    return "\n".join(lines)


def check(units, folders, public, visible=None, module_exports=None) -> list[str]:
    """Every rule above; returns the failures (empty: the core reads top down)."""
    errors = []
    graph = call_graph(units)
    for component in cycles(graph):
        errors.append("a call cycle between units " + ", ".join(component) + ":\n"
                      + describe(component, graph))
    fgraph = folder_graph(graph, folders)
    for component in cycles(fgraph):
        errors.append("a call cycle between folders " + ", ".join(component) + ":\n"
                      + describe(component, fgraph))
    for unit, callees in sorted(graph.items()):
        if TOP_UNIT in callees and unit != TOP_UNIT:
            errors.append(f"{unit} calls up into {TOP_UNIT} (the public entries): "
                          + ", ".join(sorted(callees[TOP_UNIT]))
                          + " -- call the kernel's internal function instead")
    for unit, names in sorted((visible or {}).items()):
        leaked = sorted(n for n in names if n not in public and not n.startswith("__"))
        if leaked:
            errors.append(f"{unit} exports internal symbols (not in chinchon.h; declare them "
                          f"CC_INTERNAL or static): {', '.join(leaked)}")
    if module_exports is not None:
        leaked = sorted(n for n in module_exports
                        if n not in public and not n.startswith(("PyInit_", "__pyx", "_")))
        if leaked:
            errors.append("the extension module exports internal symbols of the core: "
                          + ", ".join(leaked))
    return errors


def dot(graph, folders) -> str:
    """The unit graph in Graphviz's dot language, clustered by folder."""
    lines = ["digraph core {", "  rankdir=TB; node [shape=box, fontsize=10];"]
    for folder in sorted(set(folders.values())):
        lines.append(f'  subgraph "cluster_{folder}" {{ label="{folder}";')
        lines += [f'    "{u}";' for u in sorted(graph) if folders.get(u) == folder]
        lines.append("  }")
    for a, callees in sorted(graph.items()):
        lines += [f'  "{a}" -> "{b}";' for b in sorted(callees)]
    lines.append("}")
    return "\n".join(lines)


# ------------------------------------------------------------------ self-test


def self_test() -> int:
    """The rules on synthetic nm/readelf output: a clean core, then one fault each."""
    folders = {"api.c": ".", "a.c": "low", "b.c": "low", "c.c": "high"}
    public = {"cc_entry", "cc_base"}

    def nm(*rows: str) -> str:
        return "\n".join(f"lib.a:{r}" for r in rows)

    clean = nm("api.c.o:0 T cc_entry", "api.c.o: U c_top", "c.c.o:0 T c_top", "c.c.o: U a_one",
               "c.c.o: U b_two", "a.c.o:0 T a_one", "a.c.o: U b_two", "b.c.o:0 T b_two",
               "b.c.o:0 T cc_base", "b.c.o: U memcpy")
    assert check(parse_nm(clean), folders, public) == []
    unit_cycle = parse_nm(clean + "\n" + nm("b.c.o: U a_one"))
    errors = check(unit_cycle, folders, public)
    assert len(errors) == 1 and "units a.c, b.c" in errors[0] and "b.c -> a.c: a_one" in errors[0]
    folder_cycle = parse_nm(clean + "\n" + nm("b.c.o: U c_top"))
    errors = check(folder_cycle, folders, public)
    assert any("folders high, low" in e for e in errors), errors
    calls_up = parse_nm(clean + "\n" + nm("a.c.o: U cc_entry"))
    errors = check(calls_up, folders, public)
    assert any("a.c calls up into api.c" in e for e in errors), errors
    elf = ("File: lib.a(b.c.o)\n"
           "   Num:    Value          Size Type    Bind   Vis      Ndx Name\n"
           "     3: 0000000000000000    10 FUNC    GLOBAL DEFAULT    1 cc_base\n"
           "     4: 0000000000000010    10 FUNC    GLOBAL HIDDEN     1 b_two\n"
           "     5: 0000000000000020    10 FUNC    GLOBAL DEFAULT    1 b_leak\n"
           "     6: 0000000000000000     0 NOTYPE  GLOBAL DEFAULT  UND memcpy\n")
    visible = parse_readelf_visible(elf)
    assert visible == {"b.c": {"cc_base", "b_leak"}}, visible
    errors = check(parse_nm(clean), folders, public, visible=visible)
    assert len(errors) == 1 and "b.c exports internal symbols" in errors[0] and "b_leak" in errors[0]
    errors = check(parse_nm(clean), folders, public,
                   module_exports={"PyInit__binding", "__pyx_module_is_main", "cc_entry", "bot_draw"})
    assert len(errors) == 1 and errors[0].endswith("bot_draw"), errors
    assert public_names(CORE / "include" / "chinchon.h") >= {"cc_deadwood", "cc_settle"}
    print("callgraph self-test: ok")
    return 0


# ------------------------------------------------------------------ main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", type=Path, help="the static library libchinchon_core.a")
    parser.add_argument("--module", type=Path, action="append", default=[],
                        help="a built extension module linking the core (repeatable)")
    parser.add_argument("--src", type=Path, default=CORE / "src", help="csrc/src")
    parser.add_argument("--header", type=Path, default=CORE / "include" / "chinchon.h")
    parser.add_argument("--dot", action="store_true", help="print the unit graph as dot")
    parser.add_argument("--self-test", action="store_true", help="check the script itself")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    if args.library is None and not args.module:
        parser.error("give --library, --module or --self-test")
    public = public_names(args.header)
    folders = unit_folders(args.src)
    units, visible, exports = {}, None, None
    if args.library is not None:
        units = parse_nm(run("nm", "-A", str(args.library)))
        visible = parse_readelf_visible(run("readelf", "-sW", str(args.library)))
        unknown = sorted(set(units) - set(folders))
        if unknown:
            raise SystemExit(f"callgraph: objects without a source in {args.src}: {', '.join(unknown)}")
    if args.module:
        exports = set()
        for module in args.module:
            for line in run("nm", "-D", "--defined-only", str(module)).splitlines():
                parts = line.split()
                if len(parts) >= 3 and parts[-2].isupper():
                    exports.add(parts[-1])
    if args.dot:
        print(dot(call_graph(units), folders))
    errors = check(units, folders, public, visible, exports)
    if errors:
        for e in errors:
            print(f"callgraph: FAIL: {e}", file=sys.stderr)
        return 1
    what = [f"{len(units)} units acyclic, in folders and with api.c on top"] if units else []
    what += ["no internal symbol exported"]
    print("callgraph: ok: " + "; ".join(what))
    return 0


if __name__ == "__main__":
    sys.exit(main())
