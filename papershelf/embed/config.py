"""A library's embedding configuration and state: what `embed` builds, and how far it has got.

The choice of provider and model is remembered in the library itself (setting ``embed.spec``), and
the space the last build targeted in ``embed.space_id``; `status` describes that space, and
`pending` uses the very predicate the build uses.  `Library` delegates here.
"""

from __future__ import annotations

from ..models import PENDING_REASONS, EmbeddingStatus, PendingReason, Space
from ..store import Store
from .base import ProviderSpec

SPEC_SETTING = "embed.spec"
SPACE_SETTING = "embed.space_id"


def configured_spec(store: Store) -> ProviderSpec:
    """What `embed` builds when not told otherwise: the library's last choice, else the default."""
    saved = store.get_setting(SPEC_SETTING)
    return ProviderSpec.from_json(saved) if saved else ProviderSpec()


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
