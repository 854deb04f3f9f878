package dev.lychee.core;

import com.google.inject.AbstractModule;
import com.google.inject.matcher.Matchers;
import com.google.inject.spi.ProvisionListener;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Every {@link AutoCloseable} a {@link Lychee} instance obtained: what its injector provisioned
 * (stores, indexes, models, user components) and what was bound as an instance and fetched.
 * {@link #close()} closes each exactly once, the last obtained first, so a component is closed
 * before what it was built on. Thread-safe.
 */
final class Resources implements AutoCloseable {
  private final Deque<AutoCloseable> obtained = new ArrayDeque<>();
  private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
  private boolean closed;

  /** A module whose listener records every closeable object the injector provisions. */
  AbstractModule module() {
    return new AbstractModule() {
      @Override
      protected void configure() {
        ProvisionListener listener = new ProvisionListener() {
          @Override
          public <T> void onProvision(ProvisionInvocation<T> provision) {
            track(provision.provision());
          }
        };
        bindListener(Matchers.any(), listener);
      }
    };
  }

  /** Records {@code o} if it is closeable; returns it. */
  synchronized <T> T track(T o) {
    if (o instanceof AutoCloseable c && !closed && seen.add(o)) {
      obtained.push(c);
    }
    return o;
  }

  /**
   * Closes everything recorded, newest first. Every close is attempted; the first failure is
   * rethrown with the later ones suppressed.
   */
  @Override
  public void close() {
    List<AutoCloseable> toClose;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      toClose = new ArrayList<>(obtained);
      obtained.clear();
    }
    RuntimeException failure = null;
    for (AutoCloseable c : toClose) {
      try {
        c.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = e instanceof RuntimeException r ? r : new IllegalStateException("closing " + c + " failed: " + e.getMessage(), e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** Closes after a failed start, keeping {@code cause} as the error the caller sees. */
  void closeAfter(Throwable cause) {
    try {
      close();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }
}
