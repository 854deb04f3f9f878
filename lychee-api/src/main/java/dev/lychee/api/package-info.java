/**
 * Lychee's data model: immutable Java records for turns, segments, memory records, evidence nodes,
 * recall plans, candidates, evidence and answers.
 *
 * <p>Conventions that hold for every type in this package unless its Javadoc says otherwise:
 * <ul>
 *   <li>Records are immutable; list and set components are defensively copied and unmodifiable.</li>
 *   <li>Components are non-null. Optional values are modelled as {@code null} only where a
 *       component's Javadoc says "nullable"; collections are never null (empty instead).</li>
 *   <li>A <em>namespace</em> isolates one user's (or one tenant's) memory from every other.</li>
 * </ul>
 * The service provider interfaces live in {@link dev.lychee.api.spi}.
 */
package dev.lychee.api;
