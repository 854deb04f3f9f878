package dev.lychee.core;

import dev.lychee.core.encode.EncodingConfig;
import dev.lychee.core.read.RetrievalConfig;
import dev.lychee.core.segment.SegmentationConfig;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Immutable top-level configuration of a {@link Lychee} instance: which component runs at each
 * stage and the configuration of each stage. Build with {@link #builder()}; every value has a
 * documented default and is validated once, in {@link Builder#build()}.
 *
 * @param segmenter {@code semantic} (default), {@code fixed} or {@code turn}
 * @param encoder which encoder writes records
 * @param planner which planner makes recall plans
 * @param answerer which answer generator writes answers
 * @param maxTurnChars turns longer than this are rejected by {@code append} (default 1,000,000);
 *     shorter long turns are accepted, split by the segmenter and truncated for embedding
 * @param flushOtherSessions when a namespace receives turns for a session, close the open
 *     segments of its other sessions first (default true), so an abandoned session's last turns
 *     still become records
 * @param reembedNodes when an evidence node that is already stored appears again in a later
 *     segment, replace its vector by one embedded from that segment's search text (true: the
 *     authors' behaviour, reference §3.2) or keep the vector it got when first seen (false, the
 *     default). Node embeddings dominate ingest time (a record yields one node per entity, per
 *     tag and per entity-tag pair), and most repeats are of the same few entities and tags.
 * @param segmentation segmentation constants
 * @param encoding encoder settings
 * @param retrieval retrieval settings
 */
public record LycheeConfig(
    String segmenter,
    Mode encoder,
    Mode planner,
    Mode answerer,
    int maxTurnChars,
    boolean flushOtherSessions,
    boolean reembedNodes,
    SegmentationConfig segmentation,
    EncodingConfig encoding,
    RetrievalConfig retrieval) {

  /** Names of the built-in segmenters. */
  public static final Set<String> SEGMENTERS = Set.of("semantic", "fixed", "turn");

  /** Whether a stage uses the LLM. */
  public enum Mode {
    /** The LLM component when a {@code ChatModel} is bound, else the offline one (default). */
    AUTO,
    /** Always the offline, LLM-free component. */
    OFFLINE,
    /** Always the LLM component; creating Lychee fails without a {@code ChatModel}. */
    LLM;

    /** Parses {@code auto}, {@code offline} or {@code llm}, case-insensitively. */
    public static Mode parse(String s) {
      try {
        return Mode.valueOf(s.trim().toUpperCase(Locale.ROOT));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("unknown mode '" + s + "' (expected auto, offline or llm)");
      }
    }

    /** True when this stage should use the LLM, given whether one is available. */
    public boolean useLlm(boolean chatModelAvailable) {
      return this == LLM || (this == AUTO && chatModelAvailable);
    }
  }

  public LycheeConfig {
    Objects.requireNonNull(segmenter, "segmenter");
    if (!SEGMENTERS.contains(segmenter)) {
      throw new IllegalArgumentException("unknown segmenter '" + segmenter + "' (expected one of " + SEGMENTERS + ")");
    }
    Objects.requireNonNull(encoder, "encoder");
    Objects.requireNonNull(planner, "planner");
    Objects.requireNonNull(answerer, "answerer");
    if (maxTurnChars < 1) {
      throw new IllegalArgumentException("maxTurnChars must be >= 1: " + maxTurnChars);
    }
    Objects.requireNonNull(segmentation, "segmentation");
    Objects.requireNonNull(encoding, "encoding");
    Objects.requireNonNull(retrieval, "retrieval");
  }

  /** The defaults. */
  public static LycheeConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder initialised with this configuration's values. */
  public Builder toBuilder() {
    return new Builder().segmenter(segmenter).encoder(encoder).planner(planner).answerer(answerer)
        .maxTurnChars(maxTurnChars).flushOtherSessions(flushOtherSessions).reembedNodes(reembedNodes)
        .segmentation(segmentation)
        .encoding(encoding).retrieval(retrieval);
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private String segmenter = "semantic";
    private Mode encoder = Mode.AUTO;
    private Mode planner = Mode.AUTO;
    private Mode answerer = Mode.AUTO;
    private int maxTurnChars = 1_000_000;
    private boolean flushOtherSessions = true;
    private boolean reembedNodes = false;
    private SegmentationConfig segmentation;
    private EncodingConfig encoding;
    private RetrievalConfig retrieval;

    private Builder() {}

    public Builder segmenter(String name) {
      this.segmenter = name == null ? null : name.trim().toLowerCase(Locale.ROOT);
      return this;
    }

    public Builder encoder(Mode mode) {
      this.encoder = mode;
      return this;
    }

    public Builder planner(Mode mode) {
      this.planner = mode;
      return this;
    }

    public Builder answerer(Mode mode) {
      this.answerer = mode;
      return this;
    }

    /** Sets encoder, planner and answerer at once. */
    public Builder llm(Mode mode) {
      return encoder(mode).planner(mode).answerer(mode);
    }

    public Builder maxTurnChars(int chars) {
      this.maxTurnChars = chars;
      return this;
    }

    public Builder flushOtherSessions(boolean flush) {
      this.flushOtherSessions = flush;
      return this;
    }

    public Builder reembedNodes(boolean reembed) {
      this.reembedNodes = reembed;
      return this;
    }

    public Builder segmentation(SegmentationConfig c) {
      this.segmentation = c;
      return this;
    }

    public Builder encoding(EncodingConfig c) {
      this.encoding = c;
      return this;
    }

    public Builder retrieval(RetrievalConfig c) {
      this.retrieval = c;
      return this;
    }

    public LycheeConfig build() {
      return new LycheeConfig(segmenter, encoder, planner, answerer, maxTurnChars, flushOtherSessions, reembedNodes,
          segmentation == null ? SegmentationConfig.defaults() : segmentation,
          encoding == null ? EncodingConfig.defaults() : encoding,
          retrieval == null ? RetrievalConfig.defaults() : retrieval);
    }
  }
}
