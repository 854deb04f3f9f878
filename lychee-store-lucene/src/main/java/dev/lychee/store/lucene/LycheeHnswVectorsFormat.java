package dev.lychee.store.lucene;

import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * Lucene's HNSW vectors format under its own name, so that vectors up to {@value #MAX_DIMENSIONS}
 * dimensions can be indexed: Lucene's own format stops at 1024, below common hosted embedders
 * (1536, 3072). The on-disk files are exactly {@link Lucene99HnswVectorsFormat}'s; the name lets
 * Lucene's SPI find this class again when an index is reopened (registered in
 * {@code META-INF/services/org.apache.lucene.codecs.KnnVectorsFormat}).
 */
public final class LycheeHnswVectorsFormat extends KnnVectorsFormat {
  /** The SPI name written into the index. */
  public static final String NAME = "LycheeHnsw";
  /** Largest accepted vector dimension. */
  public static final int MAX_DIMENSIONS = 4096;

  private final KnnVectorsFormat delegate;

  /** For Lucene's SPI when reading; graph parameters do not matter for reading. */
  public LycheeHnswVectorsFormat() {
    this(Lucene99HnswVectorsFormat.DEFAULT_MAX_CONN, Lucene99HnswVectorsFormat.DEFAULT_BEAM_WIDTH);
  }

  public LycheeHnswVectorsFormat(int maxConn, int beamWidth) {
    super(NAME);
    this.delegate = new Lucene99HnswVectorsFormat(maxConn, beamWidth);
  }

  @Override
  public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
    return delegate.fieldsWriter(state);
  }

  @Override
  public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
    return delegate.fieldsReader(state);
  }

  @Override
  public int getMaxDimensions(String fieldName) {
    return MAX_DIMENSIONS;
  }

  @Override
  public String toString() {
    return NAME + "(" + delegate + ")";
  }
}
