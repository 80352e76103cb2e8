"""Where the design card's packages would serve: trimesh, pygltflib, pytest-tornado.

    pip install trimesh scipy pygltflib pytest-tornado   # measuring only: not dependencies
    python bench/design_packages.py [--corpus ../shared/corpus/gltf] [--grid 1340]

1. **trimesh** against the topology measures of ``assetcheck/mesh/topology.py``: for
   every primitive of the corpus and of a grid GLB (``bench/grid_glb.py``), the time of each and
   whether they agree on closed / boundary edges / non-manifold edges / consistent winding /
   pieces. trimesh welds by rounding positions to 1e-8, AssetCheck by exact position.
2. **pygltflib** against ``assetcheck.testing.gltf.GltfBuilder`` (the test builders) and plain
   numpy + struct (``bench/grid_glb.py``) for writing GLBs: lines of code, time, and whether
   AssetCheck finds the output valid.
3. **pytest-tornado** (unmaintained since 2020): whether it installs beside this project's
   tornado and pytest, and whether its fixtures run without warnings (``-W error``).
The figures are recorded in ``docs/architecture.md`` ("Packages of the design card").
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from assetcheck.checks import topology as topology_check  # noqa: E402
from assetcheck.engine import validate  # noqa: E402
from assetcheck.mesh.prepared import PreparedMesh  # noqa: E402
from assetcheck.mesh.topology import mesh_topology, welded_corners  # noqa: E402
from bench.grid_glb import grid_glb  # noqa: E402
from tests.checks.topology_cases import Mesh, cube, glb  # noqa: E402

PYTEST_TORNADO_TEST = """
import pytest
import tornado.web


class Hello(tornado.web.RequestHandler):
    def get(self):
        self.write({"ok": True})


@pytest.fixture
def app():
    return tornado.web.Application([(r"/", Hello)])


@pytest.mark.gen_test
async def test_hello(http_client, base_url):
    response = await http_client.fetch(base_url + "/")
    assert response.code == 200
"""


def median_seconds(function, runs: int) -> tuple[float, object]:
    times, value = [], None
    for _ in range(runs):
        started = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), value


def surfaces_of(path: Path) -> list:
    """The topology check's surfaces of a file, as the check sees them."""
    found = []
    original = topology_check.check_topology

    def grab(asset, context):
        found.extend(topology_check.surfaces(asset))
        original(asset, context)

    topology_check.check_topology = grab
    try:
        validate(path)
    finally:
        topology_check.check_topology = original
    return found


def ours(surface) -> dict:
    # A fresh mesh each run, so the weld is measured too (the surface's mesh keeps its weld).
    mesh = PreparedMesh(surface.mesh.vertices, surface.mesh.triangles)
    topology = mesh_topology(welded_corners(mesh), len(mesh.vertices))
    return {
        "closed": topology.closed,
        "boundary": topology.boundary_edges,
        "non_manifold": topology.non_manifold_edges,
        "consistent": topology.misoriented_edges == 0,
        "pieces": topology.pieces,
    }


def theirs(surface) -> dict:
    import trimesh

    mesh = trimesh.Trimesh(
        vertices=surface.mesh.vertices.coords.T.astype(np.float64),
        faces=surface.mesh.corners.T,
        process=True,
    )
    counts = np.bincount(mesh.edges_unique_inverse)
    return {
        "closed": bool(mesh.is_watertight),
        "boundary": int(np.count_nonzero(counts == 1)),
        "non_manifold": int(np.count_nonzero(counts > 2)),
        "consistent": bool(mesh.is_winding_consistent),
        "pieces": int(mesh.body_count),
    }


def compare_trimesh(paths: list[Path], runs: int) -> None:
    print("\n1. trimesh against AssetCheck's topology (median seconds per primitive)")
    print(f"{'file':<44}{'tris':>10}{'ours s':>9}{'trimesh s':>11}{'ratio':>8}  disagreements")
    agreed = total = 0
    for path in paths:
        for surface in surfaces_of(path):
            if not surface.mesh.corners.shape[1]:
                continue
            our_time, our = median_seconds(lambda s=surface: ours(s), runs)
            their_time, their = median_seconds(lambda s=surface: theirs(s), runs)
            differ = {
                key: (our[key], their[key])
                for key in our
                if our[key] is not None and our[key] != their[key]
            }
            total += 1
            agreed += not differ
            print(
                f"{path.name[:43]:<44}{surface.mesh.corners.shape[1]:>10,}{our_time:>9.4f}"
                f"{their_time:>11.4f}{their_time / our_time:>7.1f}x  {differ or ''}",
                flush=True,
            )
    print(f"agreement on every measure: {agreed} of {total} primitives")


def pygltflib_glb(mesh: Mesh) -> bytes:
    """The mesh as a GLB through pygltflib: the same document as ``topology_cases.glb``."""
    import pygltflib as g

    arrays = [
        (mesh.positions, "VEC3", g.ARRAY_BUFFER),
        (mesh.normals, "VEC3", g.ARRAY_BUFFER),
        (mesh.uvs, "VEC2", g.ARRAY_BUFFER),
        (mesh.lightmap, "VEC2", g.ARRAY_BUFFER),
        (mesh.triangles.ravel(), "SCALAR", g.ELEMENT_ARRAY_BUFFER),
    ]
    blob, views, accessors = b"", [], []
    for number, (array, kind, target) in enumerate(arrays):
        data = array.tobytes()
        views.append(
            g.BufferView(buffer=0, byteOffset=len(blob), byteLength=len(data), target=target)
        )
        component = g.UNSIGNED_SHORT if array.dtype == np.uint16 else g.FLOAT
        accessor = g.Accessor(
            bufferView=number, componentType=component, count=len(array), type=kind
        )
        if number == 0:
            accessor.min, accessor.max = array.min(0).tolist(), array.max(0).tolist()
        accessors.append(accessor)
        blob += data + b"\0" * (-len(data) % 4)
    document = g.GLTF2(
        scene=0,
        scenes=[g.Scene(nodes=[0])],
        nodes=[g.Node(mesh=0, name="box")],
        meshes=[
            g.Mesh(
                name="box",
                primitives=[
                    g.Primitive(
                        attributes=g.Attributes(POSITION=0, NORMAL=1, TEXCOORD_0=2, TEXCOORD_1=3),
                        indices=4,
                    )
                ],
            )
        ],
        accessors=accessors,
        bufferViews=views,
        buffers=[g.Buffer(byteLength=len(blob))],
    )
    document.set_binary_blob(blob)
    return b"".join(document.save_to_bytes())


def pygltflib_grid(n: int) -> bytes:
    """The bench grid (``grid_glb``) through pygltflib, from the same arrays."""
    import pygltflib as g

    axis = np.linspace(0, 1, n, dtype=np.float32)
    u, v = np.meshgrid(axis, axis)
    positions = np.stack([u.ravel(), np.sin(u.ravel() * 6) * 0.1, v.ravel()], axis=1)
    normals = np.tile(np.array([0, 1, 0], np.float32), (n * n, 1))
    uvs = np.stack([u.ravel(), v.ravel()], axis=1)
    corner = (np.arange(n - 1)[:, None] * n + np.arange(n - 1)[None, :]).ravel().astype(np.uint32)
    indices = np.stack(
        [corner, corner + n, corner + 1, corner + 1, corner + n, corner + n + 1], axis=1
    ).ravel()
    blob, views, accessors = b"", [], []
    for number, (array, kind, component) in enumerate(
        [
            (positions, "VEC3", g.FLOAT),
            (normals, "VEC3", g.FLOAT),
            (uvs, "VEC2", g.FLOAT),
            (indices, "SCALAR", g.UNSIGNED_INT),
        ]
    ):
        data = array.tobytes()
        views.append(g.BufferView(buffer=0, byteOffset=len(blob), byteLength=len(data)))
        accessors.append(
            g.Accessor(bufferView=number, componentType=component, count=len(array), type=kind)
        )
        blob += data
    accessors[0].min, accessors[0].max = positions.min(0).tolist(), positions.max(0).tolist()
    document = g.GLTF2(
        scene=0,
        scenes=[g.Scene(nodes=[0])],
        nodes=[g.Node(mesh=0, name="grid")],
        meshes=[
            g.Mesh(
                name="grid",
                primitives=[
                    g.Primitive(
                        attributes=g.Attributes(POSITION=0, NORMAL=1, TEXCOORD_0=2), indices=3
                    )
                ],
            )
        ],
        accessors=accessors,
        bufferViews=views,
        buffers=[g.Buffer(byteLength=len(blob))],
    )
    document.set_binary_blob(blob)
    return b"".join(document.save_to_bytes())


def compare_pygltflib(grid: int, runs: int) -> None:
    print("\n2. Writing GLBs: pygltflib against the project's builders")
    mesh = cube()
    rows = [
        ("cube: GltfBuilder (tests)", glb, mesh),
        ("cube: pygltflib", pygltflib_glb, mesh),
        (f"grid {grid}: numpy + struct", grid_glb, grid),
        (f"grid {grid}: pygltflib", pygltflib_grid, grid),
    ]
    print(f"{'writer':<30}{'lines':>7}{'median s':>11}{'bytes':>13}  AssetCheck errors")
    with tempfile.TemporaryDirectory() as folder:
        for label, writer, argument in rows:
            seconds, data = median_seconds(
                lambda w=writer, a=argument: w(a), runs if "cube" in label else 3
            )
            path = Path(folder) / "written.glb"
            path.write_bytes(data)
            errors = sorted({i.code for i in validate(path).issues if i.severity == "error"})
            lines = len(inspect.getsource(writer).splitlines())
            print(
                f"{label:<30}{lines:>7}{seconds:>11.5f}{len(data):>13,}  {errors or 'none'}",
                flush=True,
            )


def check_pytest_tornado() -> None:
    print("\n3. pytest-tornado beside this project's tornado and pytest")
    try:
        import pytest_tornado  # noqa: F401
    except ImportError:
        print("not installed: pip install pytest-tornado")
        return
    with tempfile.TemporaryDirectory() as folder:
        test = Path(folder) / "test_hello.py"
        test.write_text(PYTEST_TORNADO_TEST)
        for flags in ([], ["-W", "error::DeprecationWarning"]):
            run = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pytest",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    "-p",
                    "no:assetcheck",
                    *flags,
                    str(test),
                ],
                capture_output=True,
                text=True,
                cwd=folder,
            )
            last = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
            print(f"pytest {' '.join(flags) or '(default warnings)'}: {last}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, default=HERE.parents[1] / "shared" / "corpus" / "gltf"
    )
    parser.add_argument("--grid", type=int, default=1340)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    paths = sorted(p for p in args.corpus.rglob("*") if p.suffix in (".gltf", ".glb"))
    with tempfile.TemporaryDirectory() as folder:
        grid = Path(folder) / f"grid_{args.grid}.glb"
        grid.write_bytes(grid_glb(args.grid))
        compare_trimesh([*paths, grid], args.runs)
    compare_pygltflib(args.grid, args.runs)
    check_pytest_tornado()


if __name__ == "__main__":
    main()
