package dev.lychee.store.lucene;

import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.conformance.BaseRecordStoreTestCase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The shared RecordStore contract, on Lucene, with reopen over the same directory. */
class LuceneRecordStoreTest extends BaseRecordStoreTestCase {
  @TempDir Path root;
  private final Map<RecordStore, Path> dirs = new IdentityHashMap<>();
  private final List<LuceneVectorIndex> companions = new ArrayList<>();

  @Override
  protected RecordStore newStore() {
    try {
      Path dir = Files.createTempDirectory(root, "records");
      return track(new LuceneRecordStore(dir, TestConfigs.FAST), dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected boolean supportsReopen() {
    return true;
  }

  @Override
  protected RecordStore reopen(RecordStore store) {
    Path dir = dirs.remove(store);
    store.close();
    return track(new LuceneRecordStore(dir, TestConfigs.FAST), dir);
  }

  /** The Lucene vector index beside the store, so the forget cascade is checked against it too. */
  @Override
  protected VectorIndex companionIndex(RecordStore store) {
    LuceneVectorIndex index = new LuceneVectorIndex(dirs.get(store).resolveSibling(
        dirs.get(store).getFileName() + "-vectors"), TestConfigs.FAST);
    companions.add(index);
    return index;
  }

  @AfterEach
  void closeCompanions() {
    companions.forEach(LuceneVectorIndex::close);
  }

  private RecordStore track(RecordStore store, Path dir) {
    dirs.put(store, dir);
    return store;
  }
}
