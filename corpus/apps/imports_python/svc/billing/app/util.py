def cents(amount):
    return int(float(amount) * 100)
