package dev.lychee.store.postgres;

import java.time.Duration;

/**
 * An instance of {@link SegmentClaimsTest} that claims one pending segment, prints "CLAIMED
 * &lt;id&gt;" and then hangs, to be killed while holding the claim.
 *
 * <p>Arguments: url, schema, namespace, lease in milliseconds.
 */
public final class ClaimChild {
  private ClaimChild() {}

  public static void main(String[] args) throws Exception {
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(args[1]).maxPoolSize(1).build();
    PostgresDatabase db = PostgresDatabase.open(args[0], config);
    db.acquire();
    PostgresSegmentClaims claims = new PostgresSegmentClaims(db);
    var claim = claims.claimNext(args[2], "child-" + ProcessHandle.current().pid(), Duration.ofMillis(Long.parseLong(args[3])));
    System.out.println(claim.map(c -> "CLAIMED " + c.segmentId()).orElse("NOTHING"));
    System.out.flush();
    Thread.sleep(Duration.ofMinutes(5).toMillis());
  }
}
