package dev.lychee.adk;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The WARN (and worse) lines one class logs while a test runs, as formatted messages; logback is
 * the binding of this module's tests. Close it to detach.
 */
public final class WarnLog implements AutoCloseable {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private WarnLog(Class<?> type) {
    this.logger = (Logger) LoggerFactory.getLogger(type);
    appender.start();
    logger.addAppender(appender);
  }

  /** Starts capturing what {@code type}'s logger writes. */
  public static WarnLog of(Class<?> type) {
    return new WarnLog(type);
  }

  /** The messages logged at WARN or above so far, in order. */
  public List<String> lines() {
    return appender.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
        .map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    appender.stop();
  }
}
