package dev.lychee.bench.qa;

import dev.lychee.api.spi.ChatModel;
import java.nio.file.Path;

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
   * @param system the model that encodes, plans and answers; null for Lychee's offline components
   * @param judge the model that grades (may be the same instance); null for none
   * @param cacheDir where responses are cached; null for no cache
   */
  public QaModels(ChatModel system, ChatModel judge, Path cacheDir) {
    this.systemSent = system == null ? null : new CallMeter(system);
    this.judgeSent = judge == null ? null : new CallMeter(judge);
    ResponseCache cache = cacheDir == null ? null : new ResponseCache(cacheDir);
    this.systemCache = cache == null || system == null ? null : new CachingChatModel(systemSent, cache);
    this.judgeCache = cache == null || judge == null ? null : new CachingChatModel(judgeSent, cache);
    this.system = systemCache == null ? systemSent : systemCache;
    this.judge = judgeCache == null ? judgeSent : judgeCache;
  }

  /** An offline run: Lychee's offline components answer and no judge grades. */
  public static QaModels offline() {
    return new QaModels(null, null, null);
  }

  /** The system model, cached when a cache is configured; null for an offline run. */
  public ChatModel system() {
    return system;
  }

  /** The judge model, cached when a cache is configured; null when no judge grades. */
  public ChatModel judge() {
    return judge;
  }

  /** Requests that really reached the servers (cache misses), system and judge together. */
  public long sent() {
    return (systemSent == null ? 0 : systemSent.read().calls()) + (judgeSent == null ? 0 : judgeSent.read().calls());
  }

  /** Calls the cache answered. */
  public long cacheHits() {
    return (systemCache == null ? 0 : systemCache.hits()) + (judgeCache == null ? 0 : judgeCache.hits());
  }
}
