package dev.lychee.server.boot;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An input stream that runs a callback once, when its source ends or breaks. The MCP SDK's stdio
 * transport ends its session on end of input but tells nobody, so {@code lychee mcp} learns through
 * this that its client has gone and it should exit.
 */
final class EndAwareInput extends FilterInputStream {
  private final Runnable onEnd;
  private final AtomicBoolean ended = new AtomicBoolean();

  EndAwareInput(InputStream in, Runnable onEnd) {
    super(in);
    this.onEnd = onEnd;
  }

  @Override
  public int read() throws IOException {
    return watch(() -> super.read());
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0; // a zero-length read returns 0 and says nothing about the end
    }
    return watch(() -> super.read(b, off, len));
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      end();
    }
  }

  private int watch(Read read) throws IOException {
    int n;
    try {
      n = read.run();
    } catch (IOException e) {
      end(); // a broken pipe ends the client as surely as a closed one
      throw e;
    }
    if (n < 0) {
      end();
    }
    return n;
  }

  private void end() {
    if (ended.compareAndSet(false, true)) {
      onEnd.run();
    }
  }

  @FunctionalInterface
  private interface Read {
    int run() throws IOException;
  }
}
