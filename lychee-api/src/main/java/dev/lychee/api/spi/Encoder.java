package dev.lychee.api.spi;

import dev.lychee.api.Encoding;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;

/**
 * Encodes one closed segment into typed, self-contained memory records with one call (an LLM
 * call, or none for the offline encoder).
 *
 * <p>Contract: every record cites at least one turn of the segment and only turns of the segment;
 * records have non-blank text; the reference context is used to resolve references, never as a
 * source of facts. Throws {@link dev.lychee.api.EncodingException} when the segment cannot be
 * encoded; the caller leaves the segment pending. Thread-safe.
 */
public interface Encoder {

  Encoding encode(Segment segment, ReferenceContext context);

  /** A short name: {@code offline}, {@code llm} or a custom one. */
  String name();
}
