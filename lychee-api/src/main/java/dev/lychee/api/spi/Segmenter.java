package dev.lychee.api.spi;

import dev.lychee.api.Exchange;
import dev.lychee.api.Segment;
import java.util.List;

/**
 * Groups the exchanges of one session into segments, online. A segmenter is stateful and belongs
 * to exactly one (namespace, session); it is not thread-safe (the pipeline serialises calls per
 * session). It makes no LLM call.
 *
 * <p>Contract: every offered turn ends up in exactly one returned segment once {@link #flush()}
 * has been called; segments come back in turn order; an exchange that starts at or before the last
 * turn already taken is ignored (re-offers are idempotent).
 */
public interface Segmenter {

  /** Offers the next exchange; returns the segments this closed (often none). */
  List<Segment> offer(Exchange exchange);

  /** Offers several exchanges in order; returns every segment they closed. */
  default List<Segment> offerAll(List<Exchange> exchanges) {
    List<Segment> closed = new java.util.ArrayList<>();
    for (Exchange e : exchanges) {
      closed.addAll(offer(e));
    }
    return closed;
  }

  /** Closes the open segment, if any, and resets the state. */
  List<Segment> flush();

  /** Creates one segmenter per session. Thread-safe. */
  interface Factory {
    Segmenter create(String namespace, String session);

    /** The segmenter's name: {@code semantic}, {@code fixed}, {@code turn} or a custom one. */
    String name();
  }
}
