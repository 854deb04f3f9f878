package dev.lychee.server.api;

import java.util.List;

/** The answer of {@code POST .../answer}: the text, the evidence it was written from, the plan and LLM usage. */
public record AnswerView(
    String namespace, String question, String answer, PlanView plan, List<EvidenceView> evidence,
    int evidenceTokens, UsageView usage) {}
