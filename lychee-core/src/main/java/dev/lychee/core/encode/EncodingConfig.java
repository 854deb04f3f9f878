package dev.lychee.core.encode;

/**
 * Settings of the segment encoders. Immutable; validated once on construction.
 *
 * @param referenceContext pass the same-session reference context to the encoder (default true;
 *     false is the "no cross-segment continuity" ablation)
 * @param maxNoteChars the previous disambiguation note is cut to this many characters (default 1200)
 * @param maxRecentRecords how many of the session's latest distinct record texts the context
 *     carries (default 12)
 * @param maxReferenceChars the rendered reference context is cut to this many characters, keeping
 *     its head (default 2400)
 * @param temperature LLM sampling temperature (default 0, the paper's setting; the reference code
 *     ran at 0.7)
 * @param maxTokens LLM completion cap (default 4096; 0 = provider default)
 * @param jsonMode ask the provider for a JSON response where supported (default true)
 * @param repairRetries how many times an invalid LLM answer is sent back with a repair instruction
 *     before the segment fails (default 1)
 * @param maxTagsPerRecord offline encoder: at most this many tags per record (default 5)
 * @param minContentWords offline encoder: sentences with fewer content words (after stop words,
 *     chit-chat words and speaker names are removed) are dropped as small talk (default 2)
 * @param maxSessionContexts how many sessions' reference contexts are kept in memory; past it the
 *     least recently used one is dropped, and that session's next segment is encoded as after a
 *     restart, without the context (default 1,000, docs/defaults.md §2.4)
 */
public record EncodingConfig(
    boolean referenceContext,
    int maxNoteChars,
    int maxRecentRecords,
    int maxReferenceChars,
    double temperature,
    int maxTokens,
    boolean jsonMode,
    int repairRetries,
    int maxTagsPerRecord,
    int minContentWords,
    int maxSessionContexts) {

  public EncodingConfig {
    require(maxNoteChars >= 0, "maxNoteChars must be >= 0");
    require(maxRecentRecords >= 0, "maxRecentRecords must be >= 0");
    require(maxReferenceChars >= 0, "maxReferenceChars must be >= 0");
    require(temperature >= 0 && !Double.isNaN(temperature), "temperature must be >= 0");
    require(maxTokens >= 0, "maxTokens must be >= 0 (0 = provider default)");
    require(repairRetries >= 0 && repairRetries <= 5, "repairRetries must be in [0, 5]");
    require(maxTagsPerRecord >= 1, "maxTagsPerRecord must be >= 1");
    require(minContentWords >= 1, "minContentWords must be >= 1");
    require(maxSessionContexts >= 1, "maxSessionContexts must be >= 1");
  }

  /** The documented defaults. */
  public static EncodingConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    return new Builder().referenceContext(referenceContext).maxNoteChars(maxNoteChars)
        .maxRecentRecords(maxRecentRecords).maxReferenceChars(maxReferenceChars).temperature(temperature)
        .maxTokens(maxTokens).jsonMode(jsonMode).repairRetries(repairRetries)
        .maxTagsPerRecord(maxTagsPerRecord).minContentWords(minContentWords).maxSessionContexts(maxSessionContexts);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  /** Builder with the documented defaults preset. */
  public static final class Builder {
    private boolean referenceContext = true;
    private int maxNoteChars = 1200;
    private int maxRecentRecords = 12;
    private int maxReferenceChars = 2400;
    private double temperature = 0.0;
    private int maxTokens = 4096;
    private boolean jsonMode = true;
    private int repairRetries = 1;
    private int maxTagsPerRecord = 5;
    private int minContentWords = 2;
    private int maxSessionContexts = 1_000;

    private Builder() {}

    public Builder referenceContext(boolean v) {
      referenceContext = v;
      return this;
    }

    public Builder maxNoteChars(int v) {
      maxNoteChars = v;
      return this;
    }

    public Builder maxRecentRecords(int v) {
      maxRecentRecords = v;
      return this;
    }

    public Builder maxReferenceChars(int v) {
      maxReferenceChars = v;
      return this;
    }

    public Builder temperature(double v) {
      temperature = v;
      return this;
    }

    public Builder maxTokens(int v) {
      maxTokens = v;
      return this;
    }

    public Builder jsonMode(boolean v) {
      jsonMode = v;
      return this;
    }

    public Builder repairRetries(int v) {
      repairRetries = v;
      return this;
    }

    public Builder maxTagsPerRecord(int v) {
      maxTagsPerRecord = v;
      return this;
    }

    public Builder minContentWords(int v) {
      minContentWords = v;
      return this;
    }

    public Builder maxSessionContexts(int v) {
      maxSessionContexts = v;
      return this;
    }

    public EncodingConfig build() {
      return new EncodingConfig(referenceContext, maxNoteChars, maxRecentRecords, maxReferenceChars,
          temperature, maxTokens, jsonMode, repairRetries, maxTagsPerRecord, minContentWords, maxSessionContexts);
    }
  }
}
