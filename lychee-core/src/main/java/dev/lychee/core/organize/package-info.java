/**
 * Structured evidence organisation without an LLM: {@link dev.lychee.core.organize.EvidenceOrganizer}
 * derives entity, tag, entity-tag, temporal and event-frame nodes from record metadata, keyed by
 * {@link dev.lychee.core.organize.KeyNormalizer}.
 */
package dev.lychee.core.organize;
