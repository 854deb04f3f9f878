package dev.lychee.embed.onnx;

/**
 * Immutable settings of {@link OnnxEmbedder}, validated once at construction.
 *
 * <p>About {@code maxChars}: BGE-small-en-v1.5 reads at most 512 word-piece tokens (510 plus the
 * two special tokens). English prose averages roughly four characters per token, so the default
 * of 2,000 characters keeps a typical text inside one window. Text beyond {@code maxChars} is cut
 * off before tokenisation (the head is kept, since a conversational turn or a memory record puts
 * its subject first). A text that still exceeds 510 tokens after the cut is split by the model
 * wrapper into 510-token windows whose embeddings are averaged, so nothing is ever rejected for
 * being long; the character cap only bounds the cost of pathological inputs.
 *
 * @param batchSize how many documents go through the model in one call, {@code >= 1}; default 32
 * @param queryCacheSize how many query embeddings are kept in an LRU cache, {@code >= 0} (0 turns
 *     the cache off); default 4096
 * @param maxChars texts longer than this many characters are truncated, {@code >= 16}; default
 *     2000
 * @param intraOpThreads ONNX Runtime threads working on one text, {@code >= 1}; default 1. The
 *     texts of a batch already run in parallel, one per core; more threads per text only pay off
 *     for single texts on an otherwise idle machine
 * @param backgroundThreads how many background texts ({@code EmbeddingPriority.BACKGROUND}: the
 *     background encoder's records and nodes, background segmentation's exchanges) may be in the
 *     model at once in this JVM while callers are about (a foreground batch running, or one within
 *     the last second), {@code >= 1}; default one fewer than the cores, at least 1, so that a
 *     caller's texts find a core no background text holds (a background text already in the model
 *     cannot be stopped). With no caller about, background texts use every thread. Embedders with
 *     different values share one count; each batch keeps to its own limit
 */
public record OnnxEmbedderConfig(int batchSize, int queryCacheSize, int maxChars, int intraOpThreads,
    int backgroundThreads) {

  /** Default documents per model call. */
  public static final int DEFAULT_BATCH_SIZE = 32;
  /** Default number of cached query embeddings. */
  public static final int DEFAULT_QUERY_CACHE_SIZE = 4096;
  /** Default character cap per text (about one 512-token window of English). */
  public static final int DEFAULT_MAX_CHARS = 2000;
  /** Default ONNX Runtime threads per text. */
  public static final int DEFAULT_INTRA_OP_THREADS = 1;

  /**
   * Default background texts in the model at once: one fewer than the cores this JVM sees, at least
   * 1 (round eighteen, docs/defaults.md §7).
   */
  public static int defaultBackgroundThreads() {
    return Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
  }

  public OnnxEmbedderConfig {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1, was " + batchSize);
    }
    if (queryCacheSize < 0) {
      throw new IllegalArgumentException("queryCacheSize must be >= 0, was " + queryCacheSize);
    }
    if (maxChars < 16) {
      throw new IllegalArgumentException("maxChars must be >= 16, was " + maxChars);
    }
    if (intraOpThreads < 1 || intraOpThreads > 64) {
      throw new IllegalArgumentException("intraOpThreads must be in [1, 64], was " + intraOpThreads);
    }
    if (backgroundThreads < 1 || backgroundThreads > 256) {
      throw new IllegalArgumentException("backgroundThreads must be in [1, 256], was " + backgroundThreads);
    }
  }

  /**
   * The documented defaults: batch 32, cache 4096, 2000 characters, one thread per text, background
   * texts on one fewer than the cores.
   */
  public static OnnxEmbedderConfig defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    return new Builder().batchSize(batchSize).queryCacheSize(queryCacheSize).maxChars(maxChars)
        .intraOpThreads(intraOpThreads).backgroundThreads(backgroundThreads);
  }

  /** Builder for {@link OnnxEmbedderConfig}; {@link #build()} validates. */
  public static final class Builder {
    private int batchSize = DEFAULT_BATCH_SIZE;
    private int queryCacheSize = DEFAULT_QUERY_CACHE_SIZE;
    private int maxChars = DEFAULT_MAX_CHARS;
    private int intraOpThreads = DEFAULT_INTRA_OP_THREADS;
    private int backgroundThreads = defaultBackgroundThreads();

    private Builder() {}

    public Builder batchSize(int batchSize) {
      this.batchSize = batchSize;
      return this;
    }

    public Builder queryCacheSize(int queryCacheSize) {
      this.queryCacheSize = queryCacheSize;
      return this;
    }

    public Builder maxChars(int maxChars) {
      this.maxChars = maxChars;
      return this;
    }

    public Builder intraOpThreads(int intraOpThreads) {
      this.intraOpThreads = intraOpThreads;
      return this;
    }

    public Builder backgroundThreads(int backgroundThreads) {
      this.backgroundThreads = backgroundThreads;
      return this;
    }

    public OnnxEmbedderConfig build() {
      return new OnnxEmbedderConfig(batchSize, queryCacheSize, maxChars, intraOpThreads, backgroundThreads);
    }
  }
}
