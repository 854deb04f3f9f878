package dev.lychee.store.lucene;

import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.hnsw.FlatVectorsReader;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.hnsw.RandomVectorScorer;

/**
 * Vectors stored without any graph: the files of Lucene's flat vectors format (the storage under
 * {@link LycheeHnswVectorsFormat}'s graph, {@code Lucene99FlatVectorsFormat} with Lucene's default
 * flat scorer), under a name of its own so that Lucene's SPI finds this class again when an index
 * is reopened (registered in {@code META-INF/services/org.apache.lucene.codecs.KnnVectorsFormat}).
 * Writing a segment or merging segments copies the vectors and builds nothing; the vector index
 * scans these fields exactly ({@link ExactVectorScan}, {@link LoadedVectors}).
 *
 * <p>Why: Lucene's HNSW format adds each vector to its segment's graph as it is indexed and builds
 * the graph again on every merge, while the vector index searches a graph only for a (namespace,
 * kind) above {@link LuceneStoreConfig#exactSearchMaxVectors()}; in an ingest below that bound the
 * merge threads spent three fifths of their samples building graphs no search read (round
 * twenty-four, measurements.md §6).
 *
 * <p>A nearest-neighbour search on a field of this format, which the vector index never asks for,
 * still answers, exactly: the reader compares the target with every vector the accepted documents
 * hold (Lucene's flat reader alone would return nothing).
 */
public final class LycheeFlatVectorsFormat extends KnnVectorsFormat {
  /** The SPI name written into the index. */
  public static final String NAME = "LycheeFlat";

  private final Lucene99FlatVectorsFormat delegate =
      new Lucene99FlatVectorsFormat(FlatVectorScorerUtil.getLucene99FlatVectorsScorer());

  /** For Lucene's SPI, and the codec of the vector index. */
  public LycheeFlatVectorsFormat() {
    super(NAME);
  }

  @Override
  public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
    return delegate.fieldsWriter(state);
  }

  @Override
  public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
    return new ExactReader(delegate.fieldsReader(state));
  }

  /** The same bound as {@link LycheeHnswVectorsFormat#MAX_DIMENSIONS}: a vector fits either field. */
  @Override
  public int getMaxDimensions(String fieldName) {
    return LycheeHnswVectorsFormat.MAX_DIMENSIONS;
  }

  @Override
  public String toString() {
    return NAME + "(" + delegate + ")";
  }

  /** Lucene's flat reader with a brute-force nearest-neighbour search instead of none. */
  private static final class ExactReader extends KnnVectorsReader {
    private final FlatVectorsReader flat;

    ExactReader(FlatVectorsReader flat) {
      this.flat = flat;
    }

    @Override
    public void checkIntegrity() throws IOException {
      flat.checkIntegrity();
    }

    @Override
    public FloatVectorValues getFloatVectorValues(String field) throws IOException {
      return flat.getFloatVectorValues(field);
    }

    @Override
    public ByteVectorValues getByteVectorValues(String field) throws IOException {
      return flat.getByteVectorValues(field);
    }

    @Override
    public void search(String field, float[] target, KnnCollector collector, Bits acceptDocs) throws IOException {
      exhaust(flat.getRandomVectorScorer(field, target), collector, acceptDocs);
    }

    @Override
    public void search(String field, byte[] target, KnnCollector collector, Bits acceptDocs) throws IOException {
      exhaust(flat.getRandomVectorScorer(field, target), collector, acceptDocs);
    }

    /**
     * Offers every accepted document's score to the collector, in document order, until it has
     * visited as many as it allows (Lucene then answers with its own exact search).
     */
    private static void exhaust(RandomVectorScorer scorer, KnnCollector collector, Bits acceptDocs)
        throws IOException {
      if (scorer == null) {
        return; // no such field (or not of this encoding) in the segment
      }
      for (int ord = 0; ord < scorer.maxOrd() && !collector.earlyTerminated(); ord++) {
        int doc = scorer.ordToDoc(ord);
        if (acceptDocs == null || acceptDocs.get(doc)) {
          collector.incVisitedCount(1);
          collector.collect(doc, scorer.score(ord));
        }
      }
    }

    @Override
    public void close() throws IOException {
      flat.close();
    }

    @Override
    public long ramBytesUsed() {
      return flat.ramBytesUsed();
    }
  }
}
