package dev.lychee.store.lucene;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Guice module binding {@link RecordStore} and {@link VectorIndex} to Lucene indexes under one
 * root directory: {@code <root>/records} and {@code <root>/vectors}, each with its own writer.
 * Both are singletons; whoever owns the injector closes them.
 */
public final class LuceneStoreModule extends AbstractModule {
  private final Path root;
  private final LuceneStoreConfig config;

  /**
   * The store under {@code root} with {@link LuceneStoreConfig#defaults()}: the indexes
   * {@code root/records} and {@code root/vectors}, created (private to the user) on first open if
   * missing. Nothing is opened until the injector asks; the {@code Lychee} that owns the injector
   * closes both.
   */
  public LuceneStoreModule(Path root) {
    this(root, LuceneStoreConfig.defaults());
  }

  /**
   * The store under {@code root} ({@code root/records}, {@code root/vectors}, created if missing)
   * tuned by {@code config}; opened when the injector asks, closed by the {@code Lychee} that owns it.
   */
  public LuceneStoreModule(Path root, LuceneStoreConfig config) {
    this.root = Objects.requireNonNull(root, "root");
    this.config = Objects.requireNonNull(config, "config");
  }

  @Provides
  @Singleton
  RecordStore recordStore() {
    return LuceneRecordStore.open(root.resolve("records"), config);
  }

  @Provides
  @Singleton
  VectorIndex vectorIndex() {
    return new LuceneVectorIndex(root.resolve("vectors"), config);
  }
}
