package dev.lychee.store.lucene;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
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
 * only when no commit holds it, and the file can be emptied after any commit.
 *
 * <p>Not thread-safe: {@link LuceneIndex} calls it under its write lock.
 */
final class WriteAheadLog implements AutoCloseable {
  static final String FILE_NAME = "lychee-writes.wal";
  private static final int MAGIC = 0x4C57414C;
  private static final int HEADER = 4 + 4 + 8 + 4;
  /** Far above any write call's entry; a larger length is read as garbage, not allocated. */
  private static final int MAX_PAYLOAD = 256 * 1024 * 1024;

  /** One whole entry read back. */
  record Entry(long lsn, byte[] payload) {}

  /**
   * What {@link #read} found: the whole entries in order, where they end, and how many bytes
   * after that did not form a whole entry (a torn tail, dropped).
   */
  record Contents(List<Entry> entries, long validEnd, long tornBytes) {}

  private final Path path;
  private final FileChannel channel;
  private final boolean sync;
  private long end;

  /**
   * Opens (or creates) the log of an index directory. A new file is made durable in the
   * directory at once, so that a later entry's sync never depends on the directory's.
   */
  WriteAheadLog(Path directory, boolean sync) throws IOException {
    this.path = directory.resolve(FILE_NAME);
    this.sync = sync;
    boolean existed = Files.exists(path);
    this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    if (!existed && sync) {
      channel.force(true);
      IOUtils.fsync(directory, true);
    }
    this.end = channel.size();
  }

  Path path() {
    return path;
  }

  /** Reads every whole entry from the start; a torn tail is reported, not thrown. */
  Contents read() throws IOException {
    long size = channel.size();
    List<Entry> entries = new ArrayList<>();
    ByteBuffer header = ByteBuffer.allocate(HEADER);
    long pos = 0;
    while (true) {
      if (size - pos < HEADER) {
        break;
      }
      header.clear();
      readFully(header, pos);
      header.flip();
      int magic = header.getInt();
      int length = header.getInt();
      long lsn = header.getLong();
      int crc = header.getInt();
      if (magic != MAGIC || length < 0 || length > MAX_PAYLOAD || size - pos - HEADER < length) {
        break;
      }
      ByteBuffer payload = ByteBuffer.allocate(length);
      readFully(payload, pos + HEADER);
      if (checksum(lsn, payload.array()) != crc) {
        break;
      }
      entries.add(new Entry(lsn, payload.array()));
      pos += HEADER + length;
    }
    return new Contents(List.copyOf(entries), pos, size - pos);
  }

  /**
   * Appends one entry after the whole ones and syncs the file's data (unless the store runs
   * without fsync); when this returns, the entry survives the death of the process and, with
   * sync, a crash of the machine. On failure the file is cut back to where it was.
   */
  void append(long lsn, byte[] payload) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(HEADER + payload.length);
    buf.putInt(MAGIC).putInt(payload.length).putLong(lsn).putInt(checksum(lsn, payload)).put(payload).flip();
    long start = end;
    try {
      while (buf.hasRemaining()) {
        channel.write(buf, start + buf.position());
      }
      if (sync) {
        // data and the file length only (fdatasync): the file itself is already in the directory
        channel.force(false);
      }
      end = start + HEADER + payload.length;
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
   * Cuts the file to {@code size} bytes (a torn tail, or everything once a commit covers it).
   * Not synced: entries a commit covers are skipped by their sequence number if they come back,
   * and a torn tail that comes back is dropped again.
   */
  void truncate(long size) throws IOException {
    channel.truncate(size);
    end = size;
  }

  /** Whether the file holds any bytes. */
  boolean isEmpty() {
    return end == 0;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  private void readFully(ByteBuffer buf, long pos) throws IOException {
    while (buf.hasRemaining()) {
      int n = channel.read(buf, pos + buf.position());
      if (n < 0) {
        throw new IOException("unexpected end of " + path);
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
