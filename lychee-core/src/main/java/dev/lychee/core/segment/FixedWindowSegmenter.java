package dev.lychee.core.segment;

import dev.lychee.api.CloseReason;
import dev.lychee.api.Exchange;
import dev.lychee.api.Segment;
import dev.lychee.api.spi.Segmenter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The mechanical batching baseline: a window closes ({@code WINDOW_FULL}, p = 1) before an
 * exchange would take it past {@code windowTokens} (default 600) and when it holds {@code
 * windowExchanges} exchanges (default 10). A window at or above the token limit closes at once,
 * which yields the same windows as waiting for the next exchange and hands them to the encoder
 * earlier. A fragment of an oversized turn closes the window and stands alone ({@code
 * OVERSIZED_TURN_FRAGMENT}); flush closes the rest ({@code SESSION_FLUSH}). Re-offers are ignored.
 */
public final class FixedWindowSegmenter implements Segmenter {

  /** The factory name. */
  public static final String NAME = "fixed";

  private final SegmentationConfig config;
  private final OpenSegment open;
  private final ExchangeGate gate;

  public FixedWindowSegmenter(String namespace, String session, SegmentationConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.open = new OpenSegment(namespace, session);
    this.gate = new ExchangeGate(namespace, session);
  }

  /** A factory of fixed-window segmenters named {@value #NAME}. */
  public static Segmenter.Factory factory(SegmentationConfig config) {
    Objects.requireNonNull(config, "config");
    return new Segmenter.Factory() {
      @Override
      public Segmenter create(String namespace, String session) {
        return new FixedWindowSegmenter(namespace, session, config);
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
    List<Segment> closed = new ArrayList<>(2);
    if (e.forceFinalize()) {
      if (!open.isEmpty()) {
        closed.add(open.close(CloseReason.OVERSIZED_TURN_FRAGMENT, Double.NaN, 1.0));
      }
      open.add(e);
      closed.add(open.close(CloseReason.OVERSIZED_TURN_FRAGMENT, Double.NaN, 1.0));
      return closed;
    }
    if (!open.isEmpty() && open.tokens() + e.tokens() > config.windowTokens()) {
      closed.add(open.close(CloseReason.WINDOW_FULL, Double.NaN, 1.0));
    }
    open.add(e);
    if (open.exchanges() >= config.windowExchanges() || open.tokens() >= config.windowTokens()) {
      closed.add(open.close(CloseReason.WINDOW_FULL, Double.NaN, 1.0));
    }
    return closed;
  }

  @Override
  public List<Segment> flush() {
    if (open.isEmpty()) {
      return List.of();
    }
    return List.of(open.close(CloseReason.SESSION_FLUSH, Double.NaN, Double.NaN));
  }
}
