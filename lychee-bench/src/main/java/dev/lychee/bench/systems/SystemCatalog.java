package dev.lychee.bench.systems;

import dev.lychee.api.spi.Embedder;
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
      "lychee-record-only", "lychee-no-planner", "lychee-no-fusion", "lychee-no-raw");

  private final Supplier<Embedder> embedderFactory;
  private CachingEmbedder embedder;

  public SystemCatalog(Supplier<Embedder> embedderFactory) {
    this.embedderFactory = Objects.requireNonNull(embedderFactory, "embedderFactory");
  }

  /** The shared embedder (created on first use). */
  public synchronized CachingEmbedder embedder() {
    if (embedder == null) {
      embedder = new CachingEmbedder(embedderFactory.get());
    }
    return embedder;
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
      case "lychee", "lychee-record-only", "lychee-no-planner", "lychee-no-fusion", "lychee-no-raw" ->
          throw new IllegalArgumentException("system '" + n + "' needs the Lychee facade, which is not on this branch yet");
      default -> throw new IllegalArgumentException("unknown system '" + name + "'; known: " + NAMES);
    };
  }
}
