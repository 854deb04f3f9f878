package dev.lychee.core.segment;

import dev.lychee.api.CloseReason;
import dev.lychee.api.Exchange;
import dev.lychee.api.Segment;
import dev.lychee.api.spi.Segmenter;
import java.util.List;

/**
 * The eager baseline: every exchange is a segment of its own ({@code PER_EXCHANGE}; a fragment of
 * an oversized turn reports {@code OVERSIZED_TURN_FRAGMENT}). No decision is made, so score and
 * probability are NaN. Nothing is ever open, so {@link #flush()} returns nothing. Re-offers are
 * ignored.
 */
public final class TurnSegmenter implements Segmenter {

  /** The factory name. */
  public static final String NAME = "turn";

  private final OpenSegment open;
  private final ExchangeGate gate;

  public TurnSegmenter(String namespace, String session) {
    this.open = new OpenSegment(namespace, session);
    this.gate = new ExchangeGate(namespace, session);
  }

  /** A factory of per-exchange segmenters named {@value #NAME}. */
  public static Segmenter.Factory factory() {
    return new Segmenter.Factory() {
      @Override
      public Segmenter create(String namespace, String session) {
        return new TurnSegmenter(namespace, session);
      }

      @Override
      public String name() {
        return NAME;
      }
    };
  }

  @Override
  public List<Segment> offer(Exchange e) {
    if (!gate.admit(e)) {
      return List.of();
    }
    open.add(e);
    CloseReason reason = e.forceFinalize() ? CloseReason.OVERSIZED_TURN_FRAGMENT : CloseReason.PER_EXCHANGE;
    return List.of(open.close(reason, Double.NaN, Double.NaN));
  }

  @Override
  public List<Segment> flush() {
    return List.of();
  }
}
