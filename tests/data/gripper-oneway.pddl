;; Gripper where the robot can only move from rooma to roomb: states with the robot in roomb
;; and a ball left in rooma are dead ends.
(define (domain gripper-oneway)
  (:requirements :strips :typing)
  (:types room ball gripper)
  (:constants rooma roomb - room)
  (:predicates (at-robby ?r - room)
               (at ?b - ball ?r - room)
               (free ?g - gripper)
               (carry ?b - ball ?g - gripper))

  (:action move-to-b
    :parameters ()
    :precondition (at-robby rooma)
    :effect (and (at-robby roomb) (not (at-robby rooma))))

  (:action pick
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (at ?b ?r) (at-robby ?r) (free ?g))
    :effect (and (carry ?b ?g) (not (at ?b ?r)) (not (free ?g))))

  (:action drop
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (carry ?b ?g) (at-robby ?r))
    :effect (and (at ?b ?r) (free ?g) (not (carry ?b ?g)))))
