package dev.lychee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Question;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.embed.onnx.OnnxEmbeddingModule;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The offline answers a new user gets on a chat of their own, end to end with the offline defaults
 * (BGE-small ONNX, heuristic encoder, rule-based planner, extractive answerer, in-memory store): a
 * move, a new job, two rent rises, a postponed visit, an orchestra and plans told in the future
 * tense, written for this test (the chat the README's "Offline answers" section counts). Each row
 * is a question the answerer gets right; since round thirteen that includes her job title, told only
 * as "promoted to team lead", and her favourite food in Lisbon, told only as what she ate.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HandWrittenChatAnswersTest {
  private static final String NS = "priya";

  private Lychee memory;

  @BeforeAll
  void ingest() {
    memory = Lychee.create(new OnnxEmbeddingModule());
    session("s1", "2024-03-04T19:20",
        "Priya", "Hi! I just moved to Rotterdam last week, still unpacking boxes.",
        "assistant", "Welcome to Rotterdam! How is the new place?",
        "Priya", "It's a small flat near the harbour. The rent is 1,150 euros a month, which is steep.",
        "assistant", "That is a lot. Where are you working?",
        "Priya", "I work as a data analyst at Veldman Logistics, mostly on shipping forecasts.",
        "assistant", "Sounds interesting. Any hobbies you want to keep up here?",
        "Priya", "I play the cello on weekends, and I want to find an orchestra to join.",
        "assistant", "There are amateur orchestras in the city. Anything else?",
        "Priya", "My sister Anika is visiting on April 20th, I can't wait to show her around.",
        "assistant", "Lovely. Do you have pets?",
        "Priya", "A grey cat called Mochi. She hates the tram noise.");
    session("s2", "2024-06-10T08:05",
        "Priya", "Big news: I left Veldman and started at Nordwind Energy as a senior analyst on June 3rd.",
        "assistant", "Congratulations! What made you switch?",
        "Priya", "Better pay and I get to work on wind farm data, which I find much more meaningful.",
        "assistant", "And how did Anika's visit go?",
        "Priya", "She had to postpone it, she is now visiting on July 14th instead.",
        "assistant", "Too bad. Did you find an orchestra?",
        "Priya", "Yes, I joined the Maas Chamber Orchestra, we rehearse on Thursday evenings.",
        "assistant", "Great. How is the flat?",
        "Priya", "The landlord raised the rent to 1,240 euros starting in July, so I'm annoyed.",
        "assistant", "That's a big jump.",
        "Priya", "I'm flying to Lisbon on August 2nd for a week of holiday.");
    session("s3", "2024-11-20T21:40",
        "Priya", "Lisbon was wonderful, I ate pastel de nata every single morning.",
        "assistant", "Nice! What else is new?",
        "Priya", "I moved to a bigger flat in Kralingen, and the rent there is 1,400 euros.",
        "assistant", "More space for Mochi!",
        "Priya", "She loves the balcony. I'm starting Dutch lessons in January.",
        "assistant", "Good idea. Still at Nordwind?",
        "Priya", "Yes, and I was promoted to team lead last month.",
        "assistant", "Well deserved.",
        "Priya", "Our orchestra concert is on December 14th, I'm nervous about the solo.");
  }

  private void session(String id, String date, String... speakerAndText) {
    List<Turn> turns = new ArrayList<>();
    for (int i = 0; i < speakerAndText.length; i += 2) {
      turns.add(Turn.user(speakerAndText[i], speakerAndText[i + 1]));
    }
    memory.append(NS, id, LocalDateTime.parse(date), turns);
    memory.flush(NS, id);
  }

  @AfterAll
  void close() {
    memory.close();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', textBlock = """
      Where does Priya work now?                          | Nordwind Energy
      Where did Priya work before?                        | Veldman Logistics
      How much is Priya's rent now?                       | 1,400 euros
      What was Priya's rent when she moved to Rotterdam?  | 1,150 euros
      When is Anika visiting?                             | 14 July 2024
      When is Priya flying to Lisbon?                     | 2 August 2024
      When does Priya start Dutch lessons?                | January 2025
      What instrument does Priya play?                    | cello
      Which orchestra did Priya join?                     | Maas Chamber Orchestra
      What is the name of Priya's cat?                    | Mochi
      When is the orchestra concert?                      | 14 December 2024
      What is Priya's job title now?                      | team lead
      What is Priya's favourite food in Lisbon?           | pastel de nata
      ???                                                 | not available
      """)
  void answersWhatTheChatSays(String question, String expected) {
    String answer = memory.answer(Question.of(NS, question)).text();
    assertThat(answer).containsIgnoringCase(expected);
  }
}
