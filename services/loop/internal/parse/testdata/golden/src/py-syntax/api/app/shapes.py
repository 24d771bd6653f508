def area(w, h):
    result = w * h
      return result
