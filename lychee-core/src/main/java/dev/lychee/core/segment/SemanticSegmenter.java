package dev.lychee.core.segment;

import dev.lychee.api.CloseReason;
import dev.lychee.api.Exchange;
import dev.lychee.api.Segment;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.api.spi.Segmenter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Online semantic segmentation (the paper's section 3.2; docs/defaults.md §1.4). For each new exchange:
 *
 * <ol>
 *   <li>a fragment of an oversized turn ({@code forceFinalize}) closes the open segment and then
 *       forms a segment of its own ({@code OVERSIZED_TURN_FRAGMENT}, p = 1). The API requires a
 *       fragment to stand alone, so this check comes before the empty-segment case;
 *   <li>an empty open segment takes the exchange;
 *   <li>if the exchange would pass the hard cap, the open segment closes ({@code CAPACITY_LIMIT},
 *       p = 1) and a new one starts with the exchange;
 *   <li>otherwise a boundary decision is made ({@link BoundarySignals}); its surprise joins the
 *       history whatever the outcome. A cut closes the segment ({@code SEMANTIC_BOUNDARY} with the
 *       decision's score and p) and starts a new one with the exchange; no cut appends it;
 *   <li>after 2–4, a segment at or above the target closes: {@code TARGET_LENGTH} (with the
 *       decision's score and p when this exchange was appended after a decision, NaN otherwise),
 *       {@code CAPACITY_LIMIT} at the hard cap, {@code OVERSIZED_EXCHANGE} above it (p = 1).
 * </ol>
 *
 * {@link #flush()} closes the open segment ({@code SESSION_FLUSH}, NaN score and p) and drops the
 * surprise history, which otherwise carries across segment boundaries. Re-offered exchanges (those
 * starting at or before the last turn taken) are ignored.
 *
 * <p>Not thread-safe: one instance per (namespace, session), calls serialised by the pipeline. The
 * state is not persisted; after a restart the pipeline offers the turns that are not yet in a
 * closed segment to a fresh instance.
 */
public final class SemanticSegmenter implements Segmenter {

  /** The factory name. */
  public static final String NAME = "semantic";

  private final SegmentationConfig config;
  private final BoundarySignals signals;
  private final OpenSegment open;
  private final ExchangeGate gate;
  private final SurpriseHistory history;
  private BoundaryDecision lastDecision;

  public SemanticSegmenter(
      String namespace, String session, SegmentationConfig config, EmbeddingProfile profile) {
    this.config = Objects.requireNonNull(config, "config");
    this.signals = new BoundarySignals(config, profile);
    this.open = new OpenSegment(namespace, session);
    this.gate = new ExchangeGate(namespace, session);
    this.history = new SurpriseHistory(config.historySize());
  }

  /** A factory of semantic segmenters named {@value #NAME}. */
  public static Segmenter.Factory factory(SegmentationConfig config, EmbeddingProfile profile) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(profile, "profile");
    return new Segmenter.Factory() {
      @Override
      public Segmenter create(String namespace, String session) {
        return new SemanticSegmenter(namespace, session, config, profile);
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
    if (open.isEmpty()) {
      open.add(e);
      closeIfFull(closed, Double.NaN, Double.NaN);
      return closed;
    }
    if (open.tokens() + e.tokens() > config.maxTokens()) {
      closed.add(open.close(CloseReason.CAPACITY_LIMIT, Double.NaN, 1.0));
      open.add(e);
      closeIfFull(closed, Double.NaN, Double.NaN);
      return closed;
    }
    BoundaryDecision d = signals.decide(open.vectors(), e.vector(), open.tokens(), history.values());
    history.add(d.surprise());
    lastDecision = d;
    if (d.cut()) {
      closed.add(open.close(CloseReason.SEMANTIC_BOUNDARY, d.score(), d.probability()));
      open.add(e);
      closeIfFull(closed, Double.NaN, Double.NaN);
    } else {
      open.add(e);
      closeIfFull(closed, d.score(), d.probability());
    }
    return closed;
  }

  @Override
  public List<Segment> flush() {
    history.clear();
    if (open.isEmpty()) {
      return List.of();
    }
    return List.of(open.close(CloseReason.SESSION_FLUSH, Double.NaN, Double.NaN));
  }

  /** The most recent boundary decision, or null before the first one (for inspection). */
  public BoundaryDecision lastDecision() {
    return lastDecision;
  }

  private void closeIfFull(List<Segment> closed, double score, double probability) {
    int tokens = open.tokens();
    if (tokens > config.maxTokens()) {
      closed.add(open.close(CloseReason.OVERSIZED_EXCHANGE, Double.NaN, 1.0));
    } else if (tokens == config.maxTokens()) {
      closed.add(open.close(CloseReason.CAPACITY_LIMIT, Double.NaN, 1.0));
    } else if (tokens >= config.targetTokens()) {
      closed.add(open.close(CloseReason.TARGET_LENGTH, score, probability));
    }
  }
}
