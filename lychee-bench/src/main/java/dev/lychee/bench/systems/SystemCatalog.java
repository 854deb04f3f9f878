package dev.lychee.bench.systems;

import dev.lychee.api.spi.Embedder;
import dev.lychee.core.LycheeConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Builds systems by the names {@code --systems} accepts. The embedder is created lazily, once, and
 * shared (through a {@link CachingEmbedder}) by every system of the run.
 */
public final class SystemCatalog {
  /** Names that are recognised. */
  public static final List<String> NAMES = List.of("bm25", "dense", "hybrid", "lychee",
      "lychee-record-only", "lychee-no-planner", "lychee-no-fusion", "lychee-no-raw", "lychee-plan-no-person",
      "lychee-plan-no-filter", "lychee-plan-no-variants", "lychee-plan-single-temporal", "lychee-plan-single-aggregate",
      "lychee-plan-single-advice", "lychee-plan-plain-temporal", "lychee-plan-hypothetical-plain",
      "lychee-plan-hypothetical-single", "lychee-plan-hypothetical-typed", "lychee-no-latest-first",
      "lychee-embedded-nodes", "lychee-turn-vectors-from-exchanges",
      "lychee-exchange-vectors-from-turns", "lychee-derived-frames", "lychee-fewer-embeddings",
      "lychee-embed-2-variants", "lychee-embed-all-variants", "lychee-no-early-channels");

  /** Default largest depth a lychee system is asked for (the default largest k). */
  public static final int DEFAULT_LYCHEE_K = 20;

  private final Supplier<Embedder> embedderFactory;
  private final boolean cache;
  private Embedder embedder;
  private int lycheeK = DEFAULT_LYCHEE_K;
  private StoreChoice store = StoreChoice.MEMORY;
  private LycheeConfig lycheeConfig = LycheeConfig.defaults();

  /** A catalog whose systems share one caching embedder. */
  public SystemCatalog(Supplier<Embedder> embedderFactory) {
    this(embedderFactory, true);
  }

  /**
   * @param cache whether systems share a {@link CachingEmbedder} (quality runs) or use the
   *     embedder as it is (timing runs, where a cache would hide the model's cost)
   */
  public SystemCatalog(Supplier<Embedder> embedderFactory, boolean cache) {
    this.embedderFactory = Objects.requireNonNull(embedderFactory, "embedderFactory");
    this.cache = cache;
  }

  /** The shared embedder (created on first use). */
  public synchronized Embedder embedder() {
    if (embedder == null) {
      Embedder e = embedderFactory.get();
      embedder = cache ? new CachingEmbedder(e) : e;
    }
    return embedder;
  }

  /** The largest depth lychee systems are asked for (the run's largest k). */
  public SystemCatalog lycheeK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1");
    }
    this.lycheeK = k;
    return this;
  }

  /** Where lychee systems keep their data. */
  public SystemCatalog store(StoreChoice choice) {
    this.store = Objects.requireNonNull(choice, "store");
    return this;
  }

  /** The base configuration of lychee systems (ablations are applied on top). */
  public SystemCatalog lycheeConfig(LycheeConfig config) {
    this.lycheeConfig = Objects.requireNonNull(config, "config");
    return this;
  }

  public List<EvalSystem> create(List<String> names) {
    List<EvalSystem> out = new ArrayList<>();
    for (String n : names) {
      out.add(create(n));
    }
    return out;
  }

  public EvalSystem create(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    return switch (n) {
      case "bm25" -> new Bm25System();
      case "dense" -> new DenseSystem(embedder());
      case "hybrid" -> new HybridSystem(embedder());
      case "lychee", "lychee-record-only", "lychee-no-planner", "lychee-no-fusion", "lychee-no-raw",
          "lychee-plan-no-person", "lychee-plan-no-filter", "lychee-plan-no-variants", "lychee-plan-single-temporal",
          "lychee-plan-single-aggregate", "lychee-plan-single-advice", "lychee-plan-plain-temporal",
          "lychee-plan-hypothetical-plain", "lychee-plan-hypothetical-single", "lychee-plan-hypothetical-typed",
          "lychee-no-latest-first", "lychee-embedded-nodes", "lychee-turn-vectors-from-exchanges",
          "lychee-exchange-vectors-from-turns", "lychee-derived-frames", "lychee-fewer-embeddings",
          "lychee-embed-2-variants", "lychee-embed-all-variants", "lychee-no-early-channels" ->
          new LycheeSystem(n, embedder(), lycheeConfig(n), lycheeK, store, Ablation.ofSystem(n).overrides());
      default -> throw new IllegalArgumentException("unknown system '" + name + "'; known: " + NAMES);
    };
  }

  /**
   * The configuration of a lychee system: the base one as the ablation its name asks for runs it
   * (the ablation's binding overrides come from {@link Ablation#overrides()}).
   */
  public LycheeConfig lycheeConfig(String name) {
    return Ablation.ofSystem(name).configure(lycheeConfig);
  }
}
