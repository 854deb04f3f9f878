package dev.lychee.store.sqlite;

import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.conformance.BaseVectorIndexTestCase;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/** The conformance suite on the exact-scan path (every index stays below the HNSW threshold). */
class SqliteVectorIndexTest extends BaseVectorIndexTestCase {
  @TempDir
  Path dir;

  private final AtomicInteger files = new AtomicInteger();
  private final Map<VectorIndex, Path> paths = new IdentityHashMap<>();

  protected SqliteStoreConfig config() {
    return SqliteStoreConfig.builder().synchronousFull(false).build();
  }

  @Override
  protected VectorIndex newIndex() {
    Path file = dir.resolve("vectors-" + files.incrementAndGet() + ".db");
    VectorIndex v = SqliteVectorIndex.open(file, config());
    paths.put(v, file);
    return v;
  }

  @Override
  protected boolean supportsReopen() {
    return true;
  }

  @Override
  protected VectorIndex reopen(VectorIndex index) {
    Path file = paths.remove(index);
    index.close();
    VectorIndex v = SqliteVectorIndex.open(file, config());
    paths.put(v, file);
    return v;
  }
}
