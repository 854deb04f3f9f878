package dev.lychee.api.spi;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The one moment at which the reads of one recall of a namespace are answered, from
 * {@link RecordStore#readPoint}. The reads of that namespace that run inside {@link #call}, on
 * whichever threads enter it, see every write committed before the point's first such read, as a
 * single read started then would; a write committed later may or may not be seen, as for a write
 * still in flight when a read starts. A store that pays a round trip per read to learn what changed
 * since it last read (a database shared by several instances) pays it once per point instead.
 *
 * <p>Only reads see the point: a write inside {@link #call} is a write as anywhere else. Reads of
 * other namespaces, and every read outside {@link #call}, are unchanged.
 */
public interface ReadPoint {
  /** A point that changes nothing: every read inside it is answered as outside. */
  ReadPoint NONE = new ReadPoint() {
    @Override
    public <T> T call(Supplier<T> reads) {
      return Objects.requireNonNull(reads, "reads").get();
    }
  };

  /**
   * Runs {@code reads} on the calling thread with that thread's reads of the point's namespace
   * answered at this point; the thread reads as before once it returns or throws. Calls may nest
   * and may run on several threads at once.
   */
  <T> T call(Supplier<T> reads);
}
