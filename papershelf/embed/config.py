"""A library's embedding configuration and state: what `embed` builds, and how far it has got.

The choice of provider and model is remembered in the library itself (setting ``embed.spec``), and
the space the last build targeted in ``embed.space_id``; `status` describes that space, and
`pending` uses the very predicate the build uses.  `Library` delegates here.
"""

from __future__ import annotations

import os

from ..errors import BadArgument
from ..models import PENDING_REASONS, EmbeddingStatus, PendingReason, Space
from ..store import Store
from .base import ProviderSpec

SPEC_SETTING = "embed.spec"
SPACE_SETTING = "embed.space_id"
# The local model's weights for a new library: int8 (about 1.8x less encoding CPU) or none (fp32, the
# default: int8 moved figure-query MRR by more than the 0.005 issue 42 allows; docs/measurements/speed.md).
QUANTIZE_ENV = "PAPERSHELF_QUANTIZE"
QUANTIZE_CHOICES = ("int8", "none")


def wanted_quantize() -> str | None:
    """PAPERSHELF_QUANTIZE: "int8", "none" (fp32), or None when unset."""
    value = os.environ.get(QUANTIZE_ENV, "").strip().lower()
    if not value:
        return None
    if value not in QUANTIZE_CHOICES:
        raise BadArgument(f"{QUANTIZE_ENV} must be int8 or none, not {value!r}")
    return value


def quantize_options(options: dict, quantize: str) -> dict:
    """Options with the local model's weights int8 or fp32 ("none").  Newly int8: the current recipe
    (INT8_RECIPE); already int8: the library's own recipe is kept (switching recipes re-embeds)."""
    from .onnx import INT8_RECIPE

    if quantize not in QUANTIZE_CHOICES:
        raise BadArgument(f"quantize must be int8 or none, not {quantize!r}")
    if quantize != "int8":
        return {k: v for k, v in options.items() if k not in ("quantize", "int8_recipe")}
    if options.get("quantize") == "int8":
        return dict(options)
    recipe = {"int8_recipe": INT8_RECIPE} if INT8_RECIPE != 1 else {}  # recipe 1: the options int8 always had
    return {k: v for k, v in options.items() if k != "int8_recipe"} | {"quantize": "int8"} | recipe


def with_quantize(spec: ProviderSpec, quantize: str) -> ProviderSpec:
    """`spec` with the local model's weights int8 or fp32 ("none"); other providers as they are."""
    if spec.provider != "local":
        return spec
    options = quantize_options(dict(spec.options), quantize)
    return ProviderSpec(spec.provider, spec.model, tuple(sorted(options.items())), spec.settings)


def configured_spec(store: Store) -> ProviderSpec:
    """What `embed` builds when not told otherwise: the library's last choice, else the default (its
    weights as PAPERSHELF_QUANTIZE says, for a library that has none yet)."""
    saved = store.get_setting(SPEC_SETTING)
    if saved:
        return ProviderSpec.from_json(saved)
    if store.active_space() is not None:  # vectors from before the choice was remembered
        return ProviderSpec()
    wanted = wanted_quantize()
    return with_quantize(ProviderSpec(), wanted) if wanted else ProviderSpec()


def quantize_notice(store: Store, spec: ProviderSpec) -> str | None:
    """A note when PAPERSHELF_QUANTIZE asks for other weights than the library's own space uses.
    The library keeps its space (searching and embedding it): switching re-embeds every paper, which
    only an explicit `embed --quantize` does, never a variable set for new libraries."""
    wanted = wanted_quantize()
    if wanted is None or spec.provider != "local":
        return None
    if not store.get_setting(SPEC_SETTING) and store.active_space() is None:
        return None  # a new library: the variable chose its weights
    has = str(dict(spec.options).get("quantize") or "none")
    if has == wanted:
        return None
    name = {"int8": "int8", "none": "fp32"}
    return (f"{QUANTIZE_ENV}={wanted} asks for {name[wanted]} weights, but this library's space is "
            f"{name[has]}: it keeps that space; `papershelf embed --quantize {wanted}` re-embeds every paper "
            f"into an {name[wanted]} space")


def remember_spec(store: Store, spec: ProviderSpec) -> None:
    store.set_setting(SPEC_SETTING, spec.to_json())


def target_space(store: Store) -> Space | None:
    """The space `embed` builds (set by the last build), which status describes."""
    target_id = store.get_setting(SPACE_SETTING)
    return store.get_space(int(target_id)) if target_id else None


def embedding_status(store: Store) -> EmbeddingStatus:
    spec = configured_spec(store)
    target, active = target_space(store), store.active_space()
    holder = store.lock_holder()
    out = EmbeddingStatus(configured={"provider": spec.provider, "model": spec.model_name},
                          active_space=active, target_space=target, collections=None, pending_papers=0,
                          build_running=holder.to_dict() if holder and holder.alive else None)
    space = target or active
    if space is None:
        out.pending_papers = len(store.manifest_paper_ids(with_indexable_units=True))
        return out
    pending_now = store.pending(space.id)
    cols = store.collection_status(space.id, pending_now)
    failures = store.embed_failures(space.id)
    out.collections = cols
    out.stored_total = sum(c.stored for c in cols.values())
    out.expected_total = sum(c.expected for c in cols.values())
    out.pending_papers = len(pending_now)
    out.pending_reasons = {r: sum(1 for _, x in pending_now if x == r) for r in PENDING_REASONS}
    out.failed_papers = len(failures)
    out.failures = [f.to_dict() for f in failures[:20]]
    return out


def pending(store: Store, paper_ids: list[str] | None = None) -> list[tuple[str, PendingReason]]:
    """Pending papers in the space `embed` builds (the very predicate the build uses).

    Before any build every paper with indexable units is pending ("new").
    """
    target = target_space(store)
    if target is not None:
        return store.pending(target.id, paper_ids)
    wanted = set(paper_ids) if paper_ids is not None else None
    return [(p, "new") for p in store.manifest_paper_ids(with_indexable_units=True)
            if wanted is None or p in wanted]
