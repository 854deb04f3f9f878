package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every segment up to {@link LuceneStoreConfig#compoundMaxSegmentMb()}, merged or flushed, is a
 * compound file, so a commit fsyncs three files for it (.cfs, .cfe, .si) where an uncompounded
 * segment has a dozen or more. Under Lucene's own rule a segment above a tenth of the index is not
 * compound, which in a young index is nearly every merged one: a third of the forces of the
 * commit thread in an x1 ingest (round twenty-five, measurements.md §6).
 */
class LuceneCompoundMergeTest {
  @TempDir Path dir;

  /** Collects the names of the files each commit syncs. */
  private static final class Synced extends FilterDirectory {
    final List<String> names = new CopyOnWriteArrayList<>();

    Synced(Directory in) {
      super(in);
    }

    @Override
    public void sync(Collection<String> files) throws IOException {
      names.addAll(files);
      super.sync(files);
    }
  }

  private static Document doc(int i) {
    Document d = new Document();
    d.add(new StringField("id", "d" + i, Field.Store.YES));
    d.add(new TextField("text", "Nadia sang at rehearsal number " + i, Field.Store.YES));
    d.add(new NumericDocValuesField("seq", i));
    d.add(new StoredField("json", "{\"i\":" + i + "}"));
    return d;
  }

  /**
   * Forty durable writes, each a commit of one small segment and a replacement of a document in an
   * earlier one, so that the merge policy merges; then a last commit of what the merges left.
   */
  private List<String> writeAndMerge(Path path, LuceneStoreConfig config) {
    List<Synced> watched = new ArrayList<>();
    try (LuceneIndex index = new LuceneIndex(path, new StandardAnalyzer(), config, d -> {
      Synced s = new Synced(d);
      watched.add(s);
      return s;
    })) {
      for (int i = 0; i < 40; i++) {
        int n = i;
        index.write((w, s) -> {
          w.updateDocument(new Term("id", "d" + n), doc(n));
          if (n > 0) {
            w.updateDocument(new Term("id", "d" + (n - 1)), doc(n - 1));
          }
          return null;
        });
      }
      assertThat(index.awaitQuiet(Duration.ofSeconds(30))).isTrue();
      index.write((w, s) -> w.updateDocument(new Term("id", "last"), doc(99)));
    }
    return watched.get(0).names;
  }

  private static List<SegmentCommitInfo> committedSegments(Path path) throws IOException {
    try (FSDirectory fs = FSDirectory.open(path)) {
      return SegmentInfos.readLatestCommit(fs).asList();
    }
  }

  @Test
  void mergedSegmentsAreCompoundFilesAndCommitsSyncFewerFiles() throws IOException {
    List<String> compound = writeAndMerge(dir.resolve("compound"), TestConfigs.FAST);
    List<String> lucenes = writeAndMerge(dir.resolve("lucene-rule"),
        TestConfigs.FAST.toBuilder().compoundMaxSegmentMb(0).build());

    List<SegmentCommitInfo> merged = committedSegments(dir.resolve("compound"));
    assertThat(merged).isNotEmpty().allSatisfy(s -> assertThat(s.info.getUseCompoundFile()).isTrue());
    // Lucene's rule leaves the large merged segments of a small index uncompounded
    assertThat(committedSegments(dir.resolve("lucene-rule"))).anySatisfy(s -> assertThat(s.info.getUseCompoundFile()).isFalse());

    // every file a commit synced is a compound segment's, a deletion generation or the commit point
    assertThat(compound).allSatisfy(name -> assertThat(name).matches(".*\\.(cfs|cfe|si|liv)|pending_segments_.*|segments_.*"));
    assertThat(lucenes).anySatisfy(name -> assertThat(name).endsWith(".tim"));
    assertThat(compound.size()).isLessThan(lucenes.size());
  }

  @Test
  void theSizeLimitIsValidatedAndDefaultsTo32Mb() {
    assertThat(LuceneStoreConfig.defaults().compoundMaxSegmentMb()).isEqualTo(32);
    assertThatThrownBy(() -> LuceneStoreConfig.builder().compoundMaxSegmentMb(-1).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LuceneStoreConfig.builder().compoundMaxSegmentMb(Double.NaN).build())
        .isInstanceOf(IllegalArgumentException.class);
  }
}
