package dev.lychee.store.lucene;

import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.conformance.BaseVectorIndexTestCase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/** The shared VectorIndex contract, on Lucene with default settings, with reopen. */
class LuceneVectorIndexTest extends BaseVectorIndexTestCase {
  @TempDir Path root;
  private final Map<VectorIndex, Path> dirs = new IdentityHashMap<>();

  /** The settings under test; subclasses change them. */
  protected LuceneStoreConfig config() {
    return TestConfigs.FAST;
  }

  @Override
  protected VectorIndex newIndex() {
    try {
      Path dir = Files.createTempDirectory(root, "vectors");
      VectorIndex index = new LuceneVectorIndex(dir, config());
      dirs.put(index, dir);
      return index;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected boolean supportsReopen() {
    return true;
  }

  @Override
  protected VectorIndex reopen(VectorIndex index) {
    Path dir = dirs.remove(index);
    index.close();
    VectorIndex again = new LuceneVectorIndex(dir, config());
    dirs.put(again, dir);
    return again;
  }
}
