package dev.lychee.bench.load;

import dev.lychee.api.Turn;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoQuestion;
import dev.lychee.bench.harness.LocomoSessions;
import dev.lychee.bench.systems.EvalSession;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What a load run stores before timing and asks while timing: a LoCoMo conversation, or, without
 * one, a seeded synthetic dialogue (people doing things at places on dates) of a fixed size, so a
 * run needs no data set. Ingest requests during timing use {@link #turnText(int, int)}.
 *
 * @param sessions the sessions stored before timing
 * @param questions the questions recall is timed with (cycled)
 */
public record LoadWorkload(List<EvalSession> sessions, List<String> questions) {
  private static final String[] PEOPLE = {"Ana", "Ben", "Chloe", "Dev", "Elif", "Farid", "Grace", "Hiro"};
  private static final String[] DOING = {"repaired the bike", "planted tomatoes", "visited the museum", "baked bread",
      "adopted a kitten", "ran a half marathon", "painted the fence", "learned the violin", "booked a trip",
      "started a book club", "fixed the roof", "joined a choir"};
  private static final String[] PLACES = {"Lisbon", "the lake house", "the old market", "Kyoto", "the community garden",
      "the library", "Oslo", "the studio"};

  public LoadWorkload {
    sessions = List.copyOf(sessions);
    questions = List.copyOf(questions);
    if (questions.isEmpty()) {
      throw new IllegalArgumentException("a load run needs at least one question");
    }
  }

  /** The turns and questions of one LoCoMo conversation. */
  public static LoadWorkload of(LocomoConversation conversation) {
    return new LoadWorkload(LocomoSessions.of(conversation),
        conversation.questions().stream().map(LocomoQuestion::question).toList());
  }

  /** A seeded synthetic dialogue of {@code sessionCount} sessions of {@code turnsPerSession} turns. */
  public static LoadWorkload synthetic(int sessionCount, int turnsPerSession, long seed) {
    Random rnd = new Random(seed);
    List<EvalSession> sessions = new ArrayList<>();
    List<String> questions = new ArrayList<>();
    LocalDateTime day = LocalDateTime.parse("2024-01-08T10:00");
    for (int s = 0; s < sessionCount; s++) {
      List<Turn> turns = new ArrayList<>();
      for (int i = 0; i < turnsPerSession; i++) {
        String who = PEOPLE[rnd.nextInt(PEOPLE.length)];
        String what = DOING[rnd.nextInt(DOING.length)];
        String where = PLACES[rnd.nextInt(PLACES.length)];
        turns.add(Turn.user(who, "Last weekend I " + what + " in " + where + ", and it took most of the day.").withIndex(i));
        if (questions.size() < 200 && i % 3 == 0) {
          questions.add("Where did " + who + " go when they " + what + "?");
        }
      }
      sessions.add(new EvalSession("base-" + s, day.plusDays(7L * s), turns));
    }
    return new LoadWorkload(sessions, questions);
  }

  /** The text of ingest request {@code i} of client {@code client} during timing. */
  public static String turnText(int client, int i) {
    return PEOPLE[(client + i) % PEOPLE.length] + " mentioned that request " + i + " of client " + client + " went to "
        + PLACES[i % PLACES.length] + " about " + DOING[(client * 7 + i) % DOING.length] + ".";
  }
}
