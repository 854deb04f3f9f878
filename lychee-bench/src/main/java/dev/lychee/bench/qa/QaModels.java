package dev.lychee.bench.qa;

import dev.lychee.api.spi.ChatModel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The two chat models of a run (the system's and the judge's), each wrapped, bottom to top, in a
 * meter of what is really sent and, when a cache directory is given, the response cache. Each
 * conversation adds its own meter on top ({@link CallMeter}), so it can tell its construction calls
 * from its query calls.
 */
public final class QaModels {
  private final ChatModel system;
  private final ChatModel judge;
  private final CallMeter systemSent;
  private final CallMeter judgeSent;
  private final CachingChatModel systemCache;
  private final CachingChatModel judgeCache;

  /**
   * @param system the model that encodes, plans and answers
   * @param judge the model that grades (may be the same instance)
   * @param cacheDir where responses are cached; null for no cache
   */
  public QaModels(ChatModel system, ChatModel judge, Path cacheDir) {
    this.systemSent = new CallMeter(Objects.requireNonNull(system, "system"));
    this.judgeSent = new CallMeter(Objects.requireNonNull(judge, "judge"));
    ResponseCache cache = cacheDir == null ? null : new ResponseCache(cacheDir);
    this.systemCache = cache == null ? null : new CachingChatModel(systemSent, cache);
    this.judgeCache = cache == null ? null : new CachingChatModel(judgeSent, cache);
    this.system = systemCache == null ? systemSent : systemCache;
    this.judge = judgeCache == null ? judgeSent : judgeCache;
  }

  /** The system model, cached when a cache is configured. */
  public ChatModel system() {
    return system;
  }

  /** The judge model, cached when a cache is configured. */
  public ChatModel judge() {
    return judge;
  }

  /** Requests that really reached the servers (cache misses), system and judge together. */
  public long sent() {
    return systemSent.read().calls() + judgeSent.read().calls();
  }

  /** Calls the cache answered. */
  public long cacheHits() {
    return (systemCache == null ? 0 : systemCache.hits()) + (judgeCache == null ? 0 : judgeCache.hits());
  }
}
