;; blocks=5, seed=5
(define (problem blocksworld-5-5)
  (:domain blocksworld)
  (:objects b1 b2 b3 b4 b5 - object)
  (:init
    (arm-empty)
    (on-table b1)
    (on b2 b1)
    (on b4 b2)
    (on b3 b4)
    (on b5 b3)
    (clear b5))
  (:goal (and
    (on-table b2)
    (on b3 b2)
    (on b5 b3)
    (on b4 b5)
    (on b1 b4)
    (clear b1))))
