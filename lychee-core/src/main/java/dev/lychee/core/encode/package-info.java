/**
 * Segment encoding: one closed segment in, typed self-contained memory records out.
 * {@link dev.lychee.core.encode.LlmEncoder} makes one LLM call per segment;
 * {@link dev.lychee.core.encode.OfflineEncoder} does the same job by rule, without an LLM.
 * {@link dev.lychee.core.encode.ReferenceContextTracker} carries the same-session reference context
 * from one segment to the next.
 */
package dev.lychee.core.encode;
