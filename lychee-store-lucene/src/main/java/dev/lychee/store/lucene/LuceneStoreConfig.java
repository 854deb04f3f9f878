package dev.lychee.store.lucene;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of the Lucene store and vector index. Immutable and validated once; build it with
 * {@link #builder()} or take {@link #defaults()}.
 *
 * @param ramBufferMb IndexWriter RAM buffer before an automatic flush, in MB (default 32). Each
 *     write call commits anyway, so this only matters for very large batches.
 * @param hnswMaxConn HNSW graph fan-out, Lucene's {@code maxConn} (default 16)
 * @param hnswBeamWidth HNSW construction beam, Lucene's {@code beamWidth} (default 100)
 * @param exactSearchMaxVectors an index (namespace, kind) with at most this many vectors is searched
 *     by an exact scan instead of the HNSW graph (default 20 000, the reference design's brute-force
 *     threshold, docs/defaults.md §3.5); 0 always uses the graph
 * @param minCandidates the least number of graph candidates one approximate search explores
 *     (Lucene's search beam equals its {@code k}); results are then cut to the caller's k (default 100)
 * @param filterWidenFactor with a caller filter the graph fetch is {@code max(factor*k,
 *     min(k+extra, cap))} (default 5, docs/defaults.md §3.5)
 * @param filterWidenExtra see {@code filterWidenFactor} (default 80)
 * @param filterWidenCap see {@code filterWidenFactor} (default 200)
 * @param maxQueryTerms at most this many distinct analyzed terms of a lexical query are used; the
 *     rest are ignored (default 256, well below Lucene's clause limit of 1024)
 * @param fsync whether a commit forces its files to stable storage (default true). With false a
 *     commit is still atomic and survives the death of the process (the operating system keeps
 *     what was written), but not an OS crash or power loss: for tests and throwaway stores only.
 * @param readCacheMaxEntries decoded turns, records, nodes, segments and lexical hits the record
 *     store keeps between reads, a cached list counting one per element (default 50 000; 0 turns the
 *     cache off). Entries belong to one reader
 *     version, so every commit retires them: the cache never serves stale data.
 * @param vectorCacheMaxBytes approximate bytes of vectors the vector index keeps in memory for exact
 *     scans (default 256 MiB; 0 scans the index files on every search). A loaded (namespace, kind)
 *     is retired by the next commit and reloaded on its next search.
 * @param compoundFlushes whether a segment flushed by a write is packed into one compound file
 *     (default true): a commit then fsyncs three files per new segment instead of about a dozen,
 *     which on a busy disk was most of the time an {@code append} waited (docs/defaults.md §3.3)
 * @param compoundMaxSegmentMb with {@code compoundFlushes}, every segment up to this size, flushed
 *     or merged, is a compound file (default 32 MB; 0 keeps Lucene's own rule, under which a segment
 *     above a tenth of the index is not). Why: in a young index nearly every merged segment, and
 *     many flushed ones, was above that tenth, and each such segment is about fifteen files that
 *     the next commit fsyncs one by one: a third of the commit thread's forces in an x1 ingest
 *     (round twenty-five, docs/defaults.md §3.3)
 * @param deferredCommit how long the vectors of raw turns may stay visible but uncommitted before a
 *     commit takes them to disk (default 1 s; {@code Duration.ZERO} commits each write). They are
 *     the only data written this way, because the write path re-embeds missing turn vectors from
 *     the stored turns ({@code Lychee.encodePending}); records, nodes and their vectors are always
 *     committed before the call returns (docs/defaults.md §3.3); also how long turns and pending
 *     segments may stay committed only in the write-ahead log
 * @param writeAheadLog whether the record store makes appended turns and pending segments durable
 *     with one synced entry in a write-ahead log of its own and commits them to the index later,
 *     within {@code deferredCommit} or with the next other write (default true; false commits each
 *     such write, as before). The log is replayed on open; a torn tail is dropped (docs/defaults.md
 *     §3.3)
 * @param refreshOnRead whether the near-real-time reader is reopened lazily: a logged or deferred
 *     write marks the searchers stale instead of reopening them, and the next read (or the next
 *     write that needs to see it) reopens them first, so a read still sees every write that
 *     returned before it, and several writes share one reopen (default true; false reopens after
 *     every such write, as before). The reopen flushes a tiny segment and was about a quarter of a
 *     Lucene {@code append}'s time (docs/defaults.md §3.3)
 * @param alwaysBuildGraphs whether every vector goes into a field of which Lucene builds HNSW graphs
 *     (default false). With false a vector is written to a field with no graph while its (namespace,
 *     kind) holds at most {@code exactSearchMaxVectors} vectors, which are scanned exactly and never
 *     search a graph, and to the graph field once above; no segment or merge then builds a graph an
 *     index below the bound never reads. An index that crosses the bound keeps its first vectors in
 *     the flat field, and each graph search of it also scans those exactly (at most the bound);
 *     true builds graphs from the first vector on, for an index known to grow far beyond the bound,
 *     as before round twenty-five (docs/defaults.md §3.5)
 */
public record LuceneStoreConfig(
    double ramBufferMb,
    int hnswMaxConn,
    int hnswBeamWidth,
    int exactSearchMaxVectors,
    int minCandidates,
    int filterWidenFactor,
    int filterWidenExtra,
    int filterWidenCap,
    int maxQueryTerms,
    boolean fsync,
    int readCacheMaxEntries,
    long vectorCacheMaxBytes,
    boolean compoundFlushes,
    double compoundMaxSegmentMb,
    Duration deferredCommit,
    boolean writeAheadLog,
    boolean refreshOnRead,
    boolean alwaysBuildGraphs) {

  public LuceneStoreConfig {
    if (!(ramBufferMb >= 1)) {
      throw new IllegalArgumentException("ramBufferMb must be >= 1: " + ramBufferMb);
    }
    if (hnswMaxConn < 2 || hnswMaxConn > 512) {
      throw new IllegalArgumentException("hnswMaxConn must be in [2, 512]: " + hnswMaxConn);
    }
    if (hnswBeamWidth < 1 || hnswBeamWidth > 3200) {
      throw new IllegalArgumentException("hnswBeamWidth must be in [1, 3200]: " + hnswBeamWidth);
    }
    if (exactSearchMaxVectors < 0) {
      throw new IllegalArgumentException("exactSearchMaxVectors must be >= 0: " + exactSearchMaxVectors);
    }
    if (minCandidates < 1 || minCandidates > 10_000) {
      throw new IllegalArgumentException("minCandidates must be in [1, 10000]: " + minCandidates);
    }
    if (filterWidenFactor < 1 || filterWidenExtra < 0 || filterWidenCap < 1) {
      throw new IllegalArgumentException("filter widening needs factor >= 1, extra >= 0, cap >= 1");
    }
    if (maxQueryTerms < 1 || maxQueryTerms > 1000) {
      throw new IllegalArgumentException("maxQueryTerms must be in [1, 1000]: " + maxQueryTerms);
    }
    if (!(compoundMaxSegmentMb >= 0) || Double.isInfinite(compoundMaxSegmentMb)) {
      throw new IllegalArgumentException("compoundMaxSegmentMb must be a finite number >= 0: " + compoundMaxSegmentMb);
    }
    if (readCacheMaxEntries < 0 || vectorCacheMaxBytes < 0) {
      throw new IllegalArgumentException("cache sizes must be >= 0");
    }
    Objects.requireNonNull(deferredCommit, "deferredCommit");
    if (deferredCommit.isNegative() || deferredCommit.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException("deferredCommit must be in [0, 1 h]: " + deferredCommit);
    }
  }

  /** The documented defaults. */
  public static LuceneStoreConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these values. */
  public Builder toBuilder() {
    return new Builder()
        .ramBufferMb(ramBufferMb)
        .hnswMaxConn(hnswMaxConn)
        .hnswBeamWidth(hnswBeamWidth)
        .exactSearchMaxVectors(exactSearchMaxVectors)
        .minCandidates(minCandidates)
        .filterWidening(filterWidenFactor, filterWidenExtra, filterWidenCap)
        .maxQueryTerms(maxQueryTerms)
        .fsync(fsync)
        .readCacheMaxEntries(readCacheMaxEntries)
        .vectorCacheMaxBytes(vectorCacheMaxBytes)
        .compoundFlushes(compoundFlushes)
        .compoundMaxSegmentMb(compoundMaxSegmentMb)
        .deferredCommit(deferredCommit)
        .writeAheadLog(writeAheadLog)
        .refreshOnRead(refreshOnRead)
        .alwaysBuildGraphs(alwaysBuildGraphs);
  }

  /** How many graph hits to fetch for {@code k} results when a caller filter will drop some. */
  int widenedFetch(int k) {
    long widened = Math.max((long) filterWidenFactor * k, Math.min((long) k + filterWidenExtra, filterWidenCap));
    return (int) Math.min(Integer.MAX_VALUE - 1, widened);
  }

  /** Builder of {@link LuceneStoreConfig}; unset values keep their documented defaults. */
  public static final class Builder {
    private double ramBufferMb = 32;
    private int hnswMaxConn = 16;
    private int hnswBeamWidth = 100;
    private int exactSearchMaxVectors = 20_000;
    private int minCandidates = 100;
    private int filterWidenFactor = 5;
    private int filterWidenExtra = 80;
    private int filterWidenCap = 200;
    private int maxQueryTerms = 256;
    private boolean fsync = true;
    private int readCacheMaxEntries = 50_000;
    private long vectorCacheMaxBytes = 256L * 1024 * 1024;
    private boolean compoundFlushes = true;
    private double compoundMaxSegmentMb = 32;
    private Duration deferredCommit = Duration.ofSeconds(1);
    private boolean writeAheadLog = true;
    private boolean refreshOnRead = true;
    private boolean alwaysBuildGraphs = false;

    private Builder() {}

    public Builder ramBufferMb(double v) {
      this.ramBufferMb = v;
      return this;
    }

    public Builder hnswMaxConn(int v) {
      this.hnswMaxConn = v;
      return this;
    }

    public Builder hnswBeamWidth(int v) {
      this.hnswBeamWidth = v;
      return this;
    }

    public Builder exactSearchMaxVectors(int v) {
      this.exactSearchMaxVectors = v;
      return this;
    }

    public Builder minCandidates(int v) {
      this.minCandidates = v;
      return this;
    }

    public Builder filterWidening(int factor, int extra, int cap) {
      this.filterWidenFactor = factor;
      this.filterWidenExtra = extra;
      this.filterWidenCap = cap;
      return this;
    }

    public Builder maxQueryTerms(int v) {
      this.maxQueryTerms = v;
      return this;
    }

    public Builder fsync(boolean v) {
      this.fsync = v;
      return this;
    }

    public Builder readCacheMaxEntries(int v) {
      this.readCacheMaxEntries = v;
      return this;
    }

    public Builder vectorCacheMaxBytes(long v) {
      this.vectorCacheMaxBytes = v;
      return this;
    }

    public Builder compoundFlushes(boolean v) {
      this.compoundFlushes = v;
      return this;
    }

    public Builder compoundMaxSegmentMb(double v) {
      this.compoundMaxSegmentMb = v;
      return this;
    }

    public Builder deferredCommit(Duration v) {
      this.deferredCommit = v;
      return this;
    }

    public Builder writeAheadLog(boolean v) {
      this.writeAheadLog = v;
      return this;
    }

    public Builder refreshOnRead(boolean v) {
      this.refreshOnRead = v;
      return this;
    }

    public Builder alwaysBuildGraphs(boolean v) {
      this.alwaysBuildGraphs = v;
      return this;
    }

    public LuceneStoreConfig build() {
      return new LuceneStoreConfig(ramBufferMb, hnswMaxConn, hnswBeamWidth, exactSearchMaxVectors,
          minCandidates, filterWidenFactor, filterWidenExtra, filterWidenCap, maxQueryTerms, fsync,
          readCacheMaxEntries, vectorCacheMaxBytes, compoundFlushes, compoundMaxSegmentMb, deferredCommit, writeAheadLog,
          refreshOnRead, alwaysBuildGraphs);
    }
  }
}
