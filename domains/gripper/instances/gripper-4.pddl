;; balls=4, seed=0
(define (problem gripper-4)
  (:domain gripper)
  (:objects rooma roomb - room
            left right - gripper
            ball1 ball2 ball3 ball4 - ball)
  (:init
    (at-robby rooma)
    (free left)
    (free right)
    (at ball1 rooma)
    (at ball2 rooma)
    (at ball3 rooma)
    (at ball4 rooma))
  (:goal (and
    (at ball1 roomb)
    (at ball2 roomb)
    (at ball3 roomb)
    (at ball4 roomb))))
