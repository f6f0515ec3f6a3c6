;; balls=2, seed=0
(define (problem gripper-2)
  (:domain gripper)
  (:objects rooma roomb - room
            left right - gripper
            ball1 ball2 - ball)
  (:init
    (at-robby rooma)
    (free left)
    (free right)
    (at ball1 rooma)
    (at ball2 rooma))
  (:goal (and
    (at ball1 roomb)
    (at ball2 roomb))))
