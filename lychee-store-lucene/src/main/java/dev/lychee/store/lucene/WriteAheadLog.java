package dev.lychee.store.lucene;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
import org.apache.lucene.util.IOUtils;

/**
 * An append-only file of the record store's writes that a Lucene commit does not cover yet
 * (docs/defaults.md §3.3): one entry per write call, made durable by one {@code fdatasync} of this
 * one file instead of a Lucene commit's fsyncs of every new segment file and {@code segments_N}.
 *
 * <p>Entry framing, big-endian: magic {@code 0x4C57414C} ("LWAL"), payload length (int), log
 * sequence number (long), CRC-32C of the sequence number and payload (int), then the payload. A
 * reader stops at the first entry that is cut short or does not check out: that is the tail a
 * process died while writing, never acknowledged, so it is dropped. Entries carry increasing
 * sequence numbers; the index's commit records the last one it covers, so an entry is replayed
 * only when no commit holds it.
 *
 * <p>Two files take turns ({@link #FILE_NAMES}): a commit that runs while writes go on (see
 * {@link LuceneIndex}) first {@link #rotate}s, so that the entries written during its fsyncs go to
 * the other file, and afterwards empties only the file it covers ({@link #retire}). Reading takes
 * the entries of both in sequence order.
 *
 * <p>Entries are written ({@link #write}) and synced ({@link #syncTo}) in two steps: {@link
 * LuceneIndex} writes under its write lock, in sequence order, and syncs after it let the lock go,
 * so that the next write does not wait for this one's {@code fdatasync} (round nineteen); one sync
 * covers every entry written before it (a group sync), so writers that meet there share it. Only
 * {@link #syncTo} and {@link #markSynced} may be called without the write lock.
 */
final class WriteAheadLog implements AutoCloseable {
  /** The two files, in the index directory; Lucene leaves files not named like its own alone. */
  static final List<String> FILE_NAMES = List.of("lychee-writes.0.wal", "lychee-writes.1.wal");
  private static final int MAGIC = 0x4C57414C;
  private static final int HEADER = 4 + 4 + 8 + 4;
  /** Far above any write call's entry; a larger length is read as garbage, not allocated. */
  private static final int MAX_PAYLOAD = 256 * 1024 * 1024;

  /** One whole entry read back. */
  record Entry(long lsn, byte[] payload) {}

  /**
   * What {@link #read} found: the whole entries of both files in sequence order, and how many
   * bytes after the whole ones did not form an entry (a torn tail, dropped), per file.
   */
  record Contents(List<Entry> entries, List<Long> tornBytes) {
    long torn() {
      return tornBytes.stream().mapToLong(Long::longValue).sum();
    }
  }

  private final Path directory;
  private final FileChannel[] channels = new FileChannel[2];
  private final long[] ends = new long[2];
  private final boolean sync;
  private int active;
  /** The sequence number of the last entry written (set after its bytes are in the file). */
  private final AtomicLong written = new AtomicLong();
  /** Every entry up to this sequence number is durable: synced, or held by a commit. */
  private final AtomicLong synced = new AtomicLong();
  /** Per file: bytes were written to it since its last sync. */
  private final AtomicBoolean[] dirty = {new AtomicBoolean(), new AtomicBoolean()};
  /** One sync at a time: a writer that finds its entry synced meanwhile returns without one. */
  private final ReentrantLock syncLock = new ReentrantLock();
  /** {@code fdatasync} calls {@link #syncTo} made (for tests). */
  private final AtomicLong forces = new AtomicLong();

  /**
   * Opens (or creates) the log files of an index directory. A new file is made durable in the
   * directory at once, so that a later entry's sync never depends on the directory's.
   */
  WriteAheadLog(Path directory, boolean sync) throws IOException {
    this.directory = directory;
    this.sync = sync;
    boolean created = false;
    try {
      for (int i = 0; i < 2; i++) {
        Path path = directory.resolve(FILE_NAMES.get(i));
        created |= !Files.exists(path);
        channels[i] = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
        ends[i] = channels[i].size();
      }
      if (created && sync) {
        for (FileChannel c : channels) {
          c.force(true);
        }
        IOUtils.fsync(directory, true);
      }
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(channels);
      throw e;
    }
  }

  /** Where the log lives, for messages. */
  Path path() {
    return directory.resolve("lychee-writes.*.wal");
  }

  /**
   * Reads every whole entry of both files, in sequence order, and cuts each file's torn tail off
   * (not synced: a tail that comes back is dropped again), so new entries follow whole ones.
   */
  Contents read() throws IOException {
    List<Entry> entries = new ArrayList<>();
    List<Long> torn = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      long validEnd = read(channels[i], entries);
      torn.add(channels[i].size() - validEnd);
      if (channels[i].size() > validEnd) {
        channels[i].truncate(validEnd);
      }
      ends[i] = validEnd;
    }
    entries.sort(Comparator.comparingLong(Entry::lsn));
    if (!entries.isEmpty()) {
      written.accumulateAndGet(entries.get(entries.size() - 1).lsn(), Math::max);
    }
    return new Contents(List.copyOf(entries), List.copyOf(torn));
  }

  private static long read(FileChannel channel, List<Entry> into) throws IOException {
    long size = channel.size();
    ByteBuffer header = ByteBuffer.allocate(HEADER);
    long pos = 0;
    while (size - pos >= HEADER) {
      header.clear();
      readFully(channel, header, pos);
      header.flip();
      int magic = header.getInt();
      int length = header.getInt();
      long lsn = header.getLong();
      int crc = header.getInt();
      if (magic != MAGIC || length < 0 || length > MAX_PAYLOAD || size - pos - HEADER < length) {
        break;
      }
      ByteBuffer payload = ByteBuffer.allocate(length);
      readFully(channel, payload, pos + HEADER);
      if (checksum(lsn, payload.array()) != crc) {
        break;
      }
      into.add(new Entry(lsn, payload.array()));
      pos += HEADER + length;
    }
    return pos;
  }

  /**
   * Appends one entry to the active file and syncs it (unless the store runs without fsync): when
   * this returns, the entry survives the death of the process and, with sync, a crash of the
   * machine. On failure the file is cut back to where it was.
   */
  void append(long lsn, byte[] payload) throws IOException {
    write(lsn, payload);
    syncTo(lsn);
  }

  /**
   * Writes one entry to the active file without syncing it: it survives the death of the process,
   * and a crash of the machine once {@link #syncTo} covered it. On failure the file is cut back to
   * where it was. Sequence numbers must increase from one call to the next.
   */
  void write(long lsn, byte[] payload) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(HEADER + payload.length);
    buf.putInt(MAGIC).putInt(payload.length).putLong(lsn).putInt(checksum(lsn, payload)).put(payload).flip();
    FileChannel channel = channels[active];
    long start = ends[active];
    try {
      while (buf.hasRemaining()) {
        channel.write(buf, start + buf.position());
      }
      ends[active] = start + HEADER + payload.length;
      // the order matters: bytes, then dirty, then written. A sync running now (an earlier
      // writer's, outside the write lock) clears dirty before it forces; had dirty been set before
      // the bytes, it could clear it and force while they were still being written, and this
      // entry's own sync would then find the file clean and mark it synced without a force. Set
      // after them, either that force covers the bytes or the flag stays for this entry's sync.
      dirty[active].set(true);
      written.set(lsn);
    } catch (IOException | RuntimeException e) {
      try {
        channel.truncate(start);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /**
   * Makes every entry up to {@code lsn} durable, with one {@code fdatasync} of each file written to
   * since its last sync (data and length only: the files are already in the directory), unless a
   * sync or a commit did meanwhile; thread-safe. A sync covers every entry written before it
   * started, so concurrent writers share one. Without fsync in the config it only marks them.
   */
  void syncTo(long lsn) throws IOException {
    if (synced.get() >= lsn) {
      return;
    }
    syncLock.lock();
    try {
      if (synced.get() >= lsn) {
        return;
      }
      long upTo = written.get();
      if (sync) {
        for (int i = 0; i < 2; i++) {
          if (dirty[i].getAndSet(false)) {
            try {
              channels[i].force(false);
              forces.incrementAndGet();
            } catch (IOException | RuntimeException e) {
              dirty[i].set(true);
              if (synced.get() >= lsn) {
                return; // a commit took the entry (and a close the file) meanwhile
              }
              throw e;
            }
          }
        }
      }
      markSynced(upTo);
    } finally {
      syncLock.unlock();
    }
  }

  /** Records that every entry up to {@code lsn} is durable (a commit holds it); thread-safe. */
  void markSynced(long lsn) {
    synced.accumulateAndGet(lsn, Math::max);
  }

  /** How many {@code fdatasync} calls the syncs made so far (for tests). */
  long forces() {
    return forces.get();
  }

  /**
   * Sends later entries to the other file, if it is empty, and returns the file that a commit
   * starting now covers (to {@link #retire} once it succeeded); -1 when the other file still holds
   * entries (then nothing is retired, and {@link #clear} empties both once a commit covers all).
   */
  int rotate() {
    int other = 1 - active;
    if (ends[other] != 0) {
      return -1;
    }
    int covered = active;
    active = other;
    return covered;
  }

  /**
   * Empties a file a commit covers. Not synced: entries a commit covers are skipped by their
   * sequence number if they come back.
   */
  void retire(int file) throws IOException {
    if (file >= 0 && ends[file] != 0) {
      channels[file].truncate(0);
      ends[file] = 0;
    }
  }

  /** Empties both files, once a commit covers every entry (not synced, as {@link #retire}). */
  void clear() throws IOException {
    retire(0);
    retire(1);
  }

  /** Whether the files hold any bytes. */
  boolean isEmpty() {
    return ends[0] == 0 && ends[1] == 0;
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(channels);
  }

  private static void readFully(FileChannel channel, ByteBuffer buf, long pos) throws IOException {
    while (buf.hasRemaining()) {
      int n = channel.read(buf, pos + buf.position());
      if (n < 0) {
        throw new IOException("unexpected end of a write-ahead log file");
      }
    }
  }

  private static int checksum(long lsn, byte[] payload) {
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(8).putLong(0, lsn));
    crc.update(payload);
    return (int) crc.getValue();
  }
}
