package dev.lychee.core;

import dev.lychee.core.encode.EncodingConfig;
import dev.lychee.core.fallback.FallbackConfig;
import dev.lychee.core.ingest.IngestConfig;
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
 * @param ingest the write path: turn admission ({@link IngestConfig#maxTurnChars()}), closing
 *     other sessions ({@link IngestConfig#flushOtherSessions()}), node re-embedding
 *     ({@link IngestConfig#reembedNodes()}: false by default, since node embeddings dominate
 *     ingest time and most repeats are of the same few entities and tags; true is the authors'
 *     behaviour, docs/defaults.md §3.2) and synchronous or background encoding with its queue and retries
 * @param fallback the read deadline and what reads do when the LLM fails (default: 60 s, fall back
 *     to the offline planner and answerer with one warning line)
 * @param segmentation segmentation constants
 * @param encoding encoder settings
 * @param retrieval retrieval settings
 */
public record LycheeConfig(
    String segmenter,
    Mode encoder,
    Mode planner,
    Mode answerer,
    IngestConfig ingest,
    FallbackConfig fallback,
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
    Objects.requireNonNull(ingest, "ingest");
    Objects.requireNonNull(fallback, "fallback");
    Objects.requireNonNull(segmentation, "segmentation");
    Objects.requireNonNull(encoding, "encoding");
    Objects.requireNonNull(retrieval, "retrieval");
  }

  /** Turns longer than this are rejected by {@code append}; see {@link IngestConfig#maxTurnChars()}. */
  public int maxTurnChars() {
    return ingest.maxTurnChars();
  }

  /** See {@link IngestConfig#flushOtherSessions()}. */
  public boolean flushOtherSessions() {
    return ingest.flushOtherSessions();
  }

  /** See {@link IngestConfig#reembedNodes()}. */
  public boolean reembedNodes() {
    return ingest.reembedNodes();
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
        .ingest(ingest).fallback(fallback).segmentation(segmentation)
        .encoding(encoding).retrieval(retrieval);
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private String segmenter = "semantic";
    private Mode encoder = Mode.AUTO;
    private Mode planner = Mode.AUTO;
    private Mode answerer = Mode.AUTO;
    private IngestConfig.Builder ingest = IngestConfig.builder();
    private FallbackConfig fallback = FallbackConfig.defaults();
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

    /** Replaces the whole write-path configuration. */
    public Builder ingest(IngestConfig c) {
      this.ingest = Objects.requireNonNull(c, "ingest").toBuilder();
      return this;
    }

    /** The read deadline and the LLM-failure policy of reads. */
    public Builder fallback(FallbackConfig c) {
      this.fallback = Objects.requireNonNull(c, "fallback");
      return this;
    }

    /** Shortcut for {@link IngestConfig.Builder#maxTurnChars}. */
    public Builder maxTurnChars(int chars) {
      ingest.maxTurnChars(chars);
      return this;
    }

    /** Shortcut for {@link IngestConfig.Builder#flushOtherSessions}. */
    public Builder flushOtherSessions(boolean flush) {
      ingest.flushOtherSessions(flush);
      return this;
    }

    /** Shortcut for {@link IngestConfig.Builder#reembedNodes}. */
    public Builder reembedNodes(boolean reembed) {
      ingest.reembedNodes(reembed);
      return this;
    }

    /** Shortcut for {@link IngestConfig.Builder#encodeMode}. */
    public Builder encodeMode(IngestConfig.EncodeMode mode) {
      ingest.encodeMode(mode);
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
      return new LycheeConfig(segmenter, encoder, planner, answerer, ingest.build(), fallback,
          segmentation == null ? SegmentationConfig.defaults() : segmentation,
          encoding == null ? EncodingConfig.defaults() : encoding,
          retrieval == null ? RetrievalConfig.defaults() : retrieval);
    }
  }
}
